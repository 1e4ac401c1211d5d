//go:build linux || darwin || freebsd || netbsd || openbsd

package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time the process has used on every thread, the
// garbage collector's included; 0 when it cannot be read.
func Process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
