//go:build !unix

package acpexec

import "os/exec"

// setGroup does nothing: there are no process groups here, and the agent
// shares the caller's.
func setGroup(cmd *exec.Cmd) {}

// terminate kills the agent process alone: there is no SIGTERM to send and
// no group to send it to, so the processes it started can outlive it.
func terminate(p *Process) { p.cmd.Process.Kill() }

// kill kills the agent process alone.
func kill(p *Process) { p.cmd.Process.Kill() }

// groupAlive reports false: only the agent process itself is known, and
// Close waits for it separately.
func groupAlive(pgid int) bool { return false }
