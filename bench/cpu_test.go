package bench

import (
	"testing"

	"github.com/acpgen/acpgen/internal/cputime"
)

// run runs op b.N times and reports, beside the wall time, the CPU time
// per op ("cpu-ns/op"): on a machine shared with other work the wall time
// also counts the time the benchmark waits for a core, the CPU time does
// not, and it includes the collection of the garbage the op leaves.
func run(b *testing.B, op func(i int)) {
	b.ReportAllocs()
	b.ResetTimer()
	start := cputime.Process()
	for i := 0; i < b.N; i++ {
		op(i)
	}
	b.StopTimer()
	if used := cputime.Process() - start; used > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
