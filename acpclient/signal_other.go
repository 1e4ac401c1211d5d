//go:build !unix

package acpclient

import "os"

// exitStatus returns how the command of state ended: its exit code alone,
// as there are no signals here.
func exitStatus(state *os.ProcessState) ExitStatus {
	code := uint32(state.ExitCode())
	return ExitStatus{Code: &code}
}
