//go:build unix

package acpexec

import (
	"errors"
	"os/exec"
	"syscall"
)

// setGroup makes the agent the leader of a new process group, keeping the
// rest of the command's SysProcAttr.
func setGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pgid = 0
}

// terminate sends SIGTERM to the agent's process group.
func terminate(p *Process) { syscall.Kill(-p.pid, syscall.SIGTERM) }

// kill sends SIGKILL to the agent's process group.
func kill(p *Process) { syscall.Kill(-p.pid, syscall.SIGKILL) }

// groupAlive reports whether the process group pgid has a process left that
// is not a zombie.
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	return liveMember(pgid)
}
