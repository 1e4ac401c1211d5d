//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// endSignals end a check, which then writes its report: the kit's client
// may end it with any of them, or hang up.
var endSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// survivePipes makes a write to a closed pipe an error rather than the end
// of the process: a client that dies must not take the report with it.
func survivePipes() { signal.Ignore(syscall.SIGPIPE) }
