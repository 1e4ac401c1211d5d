package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessGrows: work done on this thread shows in the process's CPU
// time, which never goes back.
func TestProcessGrows(t *testing.T) {
	switch runtime.GOOS {
	case "linux", "darwin", "freebsd", "netbsd", "openbsd":
	default:
		if Process() != 0 {
			t.Fatal("CPU time reported where it is not measured")
		}
		return
	}
	before := Process()
	deadline := time.Now().Add(50 * time.Millisecond)
	x := 0
	for time.Now().Before(deadline) {
		x++
	}
	after := Process()
	if after <= before {
		t.Errorf("CPU time %v after spinning %d times, %v before", after, x, before)
	}
}
