package acpinspect

import (
	"slices"
	"sort"
	"time"
)

// methodStats is what an Inspector counts of one method.
type methodStats struct {
	count     int       // requests and notifications
	errors    int       // error responses
	latencies []float64 // of the answered requests, in milliseconds
}

// MethodStats is the count and latencies of one method.
type MethodStats struct {
	Method   string  `json:"method"`
	Count    int     `json:"count"`
	Answered int     `json:"answered"`
	Errors   int     `json:"errors"`
	P50MS    float64 `json:"p50Ms"`
	P99MS    float64 `json:"p99Ms"`
	MaxMS    float64 `json:"maxMs"`
}

// Stats returns, per method, the number of requests and notifications
// and the p50 and p99 of the requests' latencies.
func (in *Inspector) Stats() []MethodStats {
	in.mu.RLock()
	out := make([]MethodStats, 0, len(in.stats))
	lat := map[string][]float64{}
	for m, s := range in.stats {
		out = append(out, MethodStats{Method: m, Count: s.count, Answered: len(s.latencies), Errors: s.errors})
		lat[m] = slices.Clone(s.latencies)
	}
	in.mu.RUnlock()
	for i := range out {
		l := lat[out[i].Method]
		slices.Sort(l)
		out[i].P50MS, out[i].P99MS = percentile(l, 50), percentile(l, 99)
		if len(l) > 0 {
			out[i].MaxMS = l[len(l)-1]
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Method < out[j].Method })
	return out
}

// percentile returns the p-th percentile of sorted (nearest rank).
func percentile(sorted []float64, p int) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100
	return sorted[max(rank, 1)-1]
}

func (in *Inspector) count(method string) *methodStats {
	s := in.stats[method]
	if s == nil {
		s = &methodStats{}
		in.stats[method] = s
	}
	return s
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
