package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpexec"
	"github.com/acpgen/acpgen/acpinspect"
	"github.com/acpgen/acpgen/bench/workload"
)

// acpinspect's tap against a direct pipe, and its page with 100,000
// recorded messages.
//
// The agent is cat, which writes every line back: "direct" is a client
// writing to cat's standard input and reading its output, "tap" the same
// client with the acpinspect command (built with -tags unstable, every
// frame recorded and decoded) between them, as an editor runs it.

var inspectBin = sync.OnceValues(func() (string, error) {
	// One directory, rebuilt in place by each run, so that runs leave
	// no more than one binary behind.
	dir := filepath.Join(os.TempDir(), "acpinspect-bench")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "acpinspect")
	cmd := exec.Command("go", "build", "-tags", "unstable", "-o", bin, "./cmd/acpinspect")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// startPipe starts cat, directly or behind the tap.
func startPipe(b *testing.B, tap bool) *acpexec.Process {
	cmd := exec.Command("cat")
	if tap {
		bin, err := inspectBin()
		if err != nil {
			b.Fatal(err)
		}
		cmd = exec.Command(bin, "-ui", "", "--", "cat")
	}
	p, err := acpexec.Start(context.Background(), cmd, &acpexec.Options{Stderr: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	return p
}

var tapLines = sync.OnceValue(func() [][]byte {
	msgs := workload.Stream(1000)
	lines := make([][]byte, len(msgs))
	for i, m := range msgs {
		lines[i] = append(slices.Clone(m.Line), '\n')
	}
	return lines
})

// BenchmarkTapRoundTrip: one message to the agent and back at a time: the
// p50 and p99 of a round trip, the tap's added latency being the
// difference between tap and direct.
func BenchmarkTapRoundTrip(b *testing.B) {
	for _, mode := range []string{"direct", "tap"} {
		b.Run(mode, func(b *testing.B) {
			p := startPipe(b, mode == "tap")
			r := bufio.NewReaderSize(p, 1<<20)
			lines := tapLines()
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				line := lines[i%len(lines)]
				start := time.Now()
				if _, err := p.Write(line); err != nil {
					b.Fatal(err)
				}
				if _, err := r.ReadSlice('\n'); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[(len(lat)*99)/100].Microseconds()), "p99-µs")
		})
	}
}

// BenchmarkTapThroughput: messages streamed to the agent and back, the
// writer never waiting for the reader.
func BenchmarkTapThroughput(b *testing.B) {
	for _, mode := range []string{"direct", "tap"} {
		b.Run(mode, func(b *testing.B) {
			p := startPipe(b, mode == "tap")
			r := bufio.NewReaderSize(p, 1<<20)
			lines := tapLines()
			size := 0
			for _, l := range lines {
				size += len(l)
			}
			b.SetBytes(int64(size / len(lines)))
			b.ResetTimer()
			done := make(chan error, 1)
			go func() {
				w := bufio.NewWriterSize(p, 64<<10)
				for i := 0; i < b.N; i++ {
					if _, err := w.Write(lines[i%len(lines)]); err != nil {
						done <- err
						return
					}
				}
				done <- w.Flush()
			}()
			for i := 0; i < b.N; i++ {
				if _, err := r.ReadSlice('\n'); err != nil {
					b.Fatal(err)
				}
			}
			if err := <-done; err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}

// updates are the lines of the workload's session updates.
var updates = sync.OnceValue(func() []string {
	var out []string
	for _, m := range workload.Stream(100_000) {
		out = append(out, string(m.Line))
	}
	return out
})

// recorded returns an Inspector that holds n messages (n at most
// 100,003): a v1 handshake, a prompt, and the workload's session updates.
func recorded(n int) *acpinspect.Inspector {
	lines := updates()
	in := acpinspect.NewInspector()
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	add := func(from acpinspect.Sender, line string) {
		t = t.Add(time.Millisecond)
		in.Record(acpinspect.Frame{Conn: 1, Time: t, From: from, Data: []byte(line)})
	}
	add(acpinspect.FromClient, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	add(acpinspect.FromAgent, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`)
	add(acpinspect.FromClient, `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"sess_abc123def456","prompt":[{"type":"text","text":"go"}]}}`)
	for _, line := range lines[:n-3] {
		add(acpinspect.FromAgent, line)
	}
	return in
}

// BenchmarkInspect100k: recording 100,000 messages (decoding, pairing,
// the session state and the rules), and the memory they hold.
func BenchmarkInspect100k(b *testing.B) {
	const n = 100_000
	updates()
	var before, after runtime.MemStats
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runtime.GC()
		runtime.ReadMemStats(&before)
		in := recorded(n)
		runtime.GC()
		runtime.ReadMemStats(&after)
		if in.Len() != n {
			b.Fatalf("%d messages", in.Len())
		}
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "heap-B/msg")
		runtime.KeepAlive(in)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/msg")
}

// BenchmarkInspectUI100k: the page's requests on 100,000 recorded
// messages: the list's latest page (what the page loads), the first, a
// page of problems only (a scan of the whole list), the summary, the
// per-method statistics and the sessions.
func BenchmarkInspectUI100k(b *testing.B) {
	in := recorded(100_000)
	ui := acpinspect.NewUI(in, acpinspect.UIOptions{Token: "t"})
	for _, r := range []struct{ name, path string }{
		{"latest-page", "/api/messages?before=100001&limit=200"},
		{"first-page", "/api/messages?from=1&limit=200"},
		{"problems", "/api/messages?from=1&limit=200&only=problems"},
		{"summary", "/api/summary"},
		{"stats", "/api/stats"},
		{"sessions", "/api/sessions"},
	} {
		b.Run(r.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				req := httptest.NewRequest("GET", "http://127.0.0.1"+r.path, nil)
				req.AddCookie(&http.Cookie{Name: "acpinspect_token", Value: "t"})
				w := httptest.NewRecorder()
				ui.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatalf("%s: %d %s", r.path, w.Code, w.Body)
				}
				b.SetBytes(int64(w.Body.Len()))
			}
		})
	}
}
