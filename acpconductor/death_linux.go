package acpconductor

import (
	"os/exec"
	"syscall"
)

// dieWithConductor has Linux send the component SIGTERM when the
// conductor dies without ending it (killed with SIGKILL, say), so that
// no component outlives it even then.
func dieWithConductor(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
