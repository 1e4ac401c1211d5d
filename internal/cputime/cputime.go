// Package cputime reads the CPU time the process has used, for benchmarks
// that report it beside the wall time: on a machine shared with other work
// the wall time also counts the time a benchmark waits for a core, the CPU
// time does not, and it includes the collection of the garbage it leaves.
package cputime
