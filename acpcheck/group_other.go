//go:build !unix

package acpcheck

import "os/exec"

// setGroup does nothing where there are no process groups.
func setGroup(cmd *exec.Cmd) {}

// signalGroup kills the process itself where there are no process groups.
func signalGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
