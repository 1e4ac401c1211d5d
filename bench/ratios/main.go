// Command ratios reads `go test -bench` output and prints, per workload, how
// acpgen compares with the other contenders, and whether it meets the
// performance targets.
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
)

// line matches "BenchmarkDecode/stream/acpgen-2  N  123 ns/op  4.0 MB/s  …".
var line = regexp.MustCompile(`^Benchmark(\w+)/([\w/]+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op`)

// allocs matches the allocations per op of a line.
var allocsPerOp = regexp.MustCompile(`\s(\d+) allocs/op`)

// cpu matches the CPU time per op that the decode benchmarks report.
var cpu = regexp.MustCompile(`\s([\d.]+) cpu-ns/op`)

// sample holds the wall or, when reported, CPU time per op of each count.
type sample struct{ ns, allocs []float64 }

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func main() {
	samples := map[string]*sample{}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		key := m[1] + "/" + m[2]
		s := samples[key]
		if s == nil {
			s = &sample{}
			samples[key] = s
		}
		ns, _ := strconv.ParseFloat(m[3], 64)
		if c := cpu.FindStringSubmatch(sc.Text()); c != nil {
			ns, _ = strconv.ParseFloat(c[1], 64)
		}
		s.ns = append(s.ns, ns)
		if a := allocsPerOp.FindStringSubmatch(sc.Text()); a != nil {
			n, _ := strconv.ParseFloat(a[1], 64)
			s.allocs = append(s.allocs, n)
		}
	}
	ns := func(k string) float64 {
		if s := samples[k]; s != nil {
			return median(s.ns)
		}
		return 0
	}
	allocs := func(k string) float64 {
		if s := samples[k]; s != nil {
			return median(s.allocs)
		}
		return 0
	}
	check := func(what string, got, want float64, higherIsBetter bool) {
		if got == 0 || math.IsNaN(got) || math.IsInf(got, 0) {
			return
		}
		ok := got >= want
		if !higherIsBetter {
			ok = got <= want
		}
		mark := "MISS"
		if ok {
			mark = "ok"
		}
		fmt.Printf("  %-58s %7.2f (target %s %.2f) %s\n", what, got, map[bool]string{true: "≥", false: "≤"}[higherIsBetter], want, mark)
	}
	for _, w := range []string{"stream", "corpus"} {
		if ns("Decode/"+w+"/acpgen") == 0 && ns("Message/"+w+"/acpgen") == 0 {
			continue
		}
		fmt.Printf("%s workload (ratios of medians, of CPU time where reported)\n", w)
		check("message decode speed vs coder (×)", ns("Message/"+w+"/coder")/ns("Message/"+w+"/acpgen"), 6, true)
		check("message decode speed vs encoding/json into any (×)", ns("Message/"+w+"/any")/ns("Message/"+w+"/acpgen"), 2, true)
		check("message decode allocations vs coder (×)", allocs("Message/"+w+"/acpgen")/allocs("Message/"+w+"/coder"), 0.3, false)
		check("UnmarshalJSON speed vs coder (×)", ns("Decode/"+w+"/coder")/ns("Decode/"+w+"/acpgen"), 8, true)
		check("UnmarshalJSON speed vs encoding/json into any (×)", ns("Decode/"+w+"/any")/ns("Decode/"+w+"/acpgen"), 1, true)
		check("UnmarshalJSON allocations vs coder (×)", allocs("Decode/"+w+"/acpgen")/allocs("Decode/"+w+"/coder"), 0.3, false)
		check("encode speed vs coder (×)", ns("Encode/"+w+"/coder")/ns("Encode/"+w+"/acpgen"), 4, true)
	}
	if k, u := ns("Dispatch/known"), ns("Dispatch/union"); k > 0 {
		fmt.Println("dispatch (stream updates)")
		check("dispatch overhead over the known variant (%)", 100*(u/k-1), 10, false)
	}
	if g := ns("ConnNotify/acpgen"); g > 0 {
		fmt.Println("connection over an in-memory pipe")
		check("session/update notifications per second vs coder (×)", ns("ConnNotify/coder")/g, 3, true)
		check("request round trips per second vs coder (×)", ns("ConnRoundTrip/coder")/ns("ConnRoundTrip/acpgen"), 3, true)
	}
	for _, v := range []string{"v1", "v2"} {
		raw := ns("TurnSay/" + v + "/raw")
		if raw == 0 {
			continue
		}
		fmt.Printf("turn runtime %s (Turn.Say against the connection's session/update)\n", v)
		check("runner without history over the connection (%)", 100*(ns("TurnSay/"+v+"/nohistory")/raw-1), 10, false)
		check("runner with its default history over the connection (%)", 100*(ns("TurnSay/"+v+"/history")/raw-1), 25, false)
	}
	for _, v := range []string{"v1", "v2"} {
		if m, q := ns("TurnSayStore/"+v+"/memory"), ns("TurnSayStore/"+v+"/sqlite"); m > 0 && q > 0 {
			fmt.Printf("session store %s (a TurnRunner's chunks on SQLite against memory)\n", v)
			check("chunks per second on SQLite vs memory (×)", m/q, 0.5, true)
		}
	}
	if k, u := ns("Fallback/known"), ns("Fallback/unknown"); k > 0 {
		fmt.Println("fallback")
		check("unknown variant decode time vs known (×)", u/k, 1, false)
	}
}
