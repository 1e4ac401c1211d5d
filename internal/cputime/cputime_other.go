//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package cputime

import "time"

// Process is not measured here: it returns 0, and benchmarks report wall
// time only.
func Process() time.Duration { return 0 }
