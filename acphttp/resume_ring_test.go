package acphttp

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestRing checks the ring of a stream's sent messages against a slice
// doing the same: pushes up to its limit, drops of the oldest, and
// truncations, in a seeded random order.
func TestRing(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, limit := range []int{1, 3, 8, 13, 100} {
		var r ring
		var want []string
		n := 0
		for step := range 2000 {
			switch op := rng.IntN(10); {
			case op < 7 && len(want) < limit:
				n++
				msg := strconv.Itoa(n)
				r.push(retained{msg: []byte(msg)}, limit)
				want = append(want, msg)
			case op < 9 && len(want) > 0:
				k := rng.IntN(len(want)) + 1
				r.dropFront(k)
				want = want[k:]
			case len(want) > 0:
				k := rng.IntN(len(want))
				r.truncate(k)
				want = want[:k]
			}
			var got []string
			for i := range r.len() {
				got = append(got, string(r.at(i).msg))
			}
			if !slices.Equal(got, want) || len(r.buf) > limit {
				t.Fatalf("limit %d, step %d: %q (buffer %d), want %q", limit, step, got, len(r.buf), want)
			}
		}
	}
}

// BenchmarkKeep measures what a resumable stream does with each message of
// the agent, against a plain stream: "plain" copies the message, as a
// plain Streamable HTTP stream queues it; "resumable" stamps it with its
// cursor (a copy too) and keeps it in the stream's ring, at the default
// retention, as a JSON text (WebSocket) or an SSE event.
func BenchmarkKeep(b *testing.B) {
	msg := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"bench_1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"chunk"}}}}`)
	m := message{hasMethod: true}
	r := Resumable{}.withDefaults()
	now := time.Now()
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		var kept []byte
		for b.Loop() {
			kept = bytes.Clone(msg)
		}
		_ = kept
	})
	for _, framed := range []bool{false, true} {
		name := "resumable/ws"
		if framed {
			name = "resumable/sse"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			l := newStreamLog(framed)
			for b.Loop() {
				l.retain(l.stamp(msg, &m), &r, now)
			}
		})
	}
}
