//go:build unix

package acpclient

import (
	"os"
	"strconv"
	"syscall"
)

// signalNames are the names of the signals a command is commonly ended by.
var signalNames = map[syscall.Signal]string{
	syscall.SIGABRT: "SIGABRT", syscall.SIGALRM: "SIGALRM", syscall.SIGBUS: "SIGBUS",
	syscall.SIGFPE: "SIGFPE", syscall.SIGHUP: "SIGHUP", syscall.SIGILL: "SIGILL",
	syscall.SIGINT: "SIGINT", syscall.SIGKILL: "SIGKILL", syscall.SIGPIPE: "SIGPIPE",
	syscall.SIGQUIT: "SIGQUIT", syscall.SIGSEGV: "SIGSEGV", syscall.SIGTERM: "SIGTERM",
	syscall.SIGTRAP: "SIGTRAP", syscall.SIGUSR1: "SIGUSR1", syscall.SIGUSR2: "SIGUSR2",
	syscall.SIGXCPU: "SIGXCPU", syscall.SIGXFSZ: "SIGXFSZ",
}

// exitStatus returns how the command of state ended.
func exitStatus(state *os.ProcessState) ExitStatus {
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		name, ok := signalNames[ws.Signal()]
		if !ok {
			name = "SIG" + strconv.Itoa(int(ws.Signal()))
		}
		return ExitStatus{Signal: &name}
	}
	code := uint32(state.ExitCode())
	return ExitStatus{Code: &code}
}
