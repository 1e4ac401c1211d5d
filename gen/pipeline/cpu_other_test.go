//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package pipeline

import "time"

// cpuTime is not measured here: the benchmarks report wall time only.
func cpuTime() time.Duration { return 0 }
