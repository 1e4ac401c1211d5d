package acphttp

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// TestKeySet checks a keySet against a map doing the same, through the
// switch from its slice to its map and back to fewer keys, in a seeded
// random order of adds and removes.
func TestKeySet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var s keySet
	want := map[string]bool{}
	for step := range 5000 {
		k := strconv.Itoa(rng.IntN(3 * maxFewKeys))
		if rng.IntN(3) > 0 {
			if !s.has(k) {
				s.add(k)
			}
			want[k] = true
		} else {
			s.remove(k)
			delete(want, k)
		}
		var keys []string
		for w := range want {
			keys = append(keys, w)
			if !s.has(w) {
				t.Fatalf("step %d: %q missing", step, w)
			}
		}
		slices.Sort(keys)
		if got := s.keys(); !slices.Equal(got, keys) {
			t.Fatalf("step %d: keys %q, want %q", step, got, keys)
		}
	}
	if s.many == nil {
		t.Error("the set never took its map")
	}
}
