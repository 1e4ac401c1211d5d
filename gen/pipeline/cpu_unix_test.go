//go:build linux || darwin || freebsd || netbsd || openbsd

package pipeline

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used on every thread, the
// garbage collector's included.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
