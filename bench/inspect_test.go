package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
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

// relayBin is bench/relay, built next to the acpinspect binary.
var relayBin = sync.OnceValues(func() (string, error) {
	bin, err := inspectBin()
	if err != nil {
		return "", err
	}
	bin = filepath.Join(filepath.Dir(bin), "relay")
	if out, err := exec.Command("go", "build", "-o", bin, "./relay").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// startRelay starts cat behind bench/relay, a process that copies both
// ways and records nothing.
func startRelay(b *testing.B) *pipe {
	bin, err := relayBin()
	if err != nil {
		b.Fatal(err)
	}
	p, err := acpexec.Start(context.Background(), exec.Command(bin, "cat"), &acpexec.Options{Stderr: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	return &pipe{p: p, r: bufio.NewReaderSize(p, 1<<20)}
}

// startPipe starts cat, directly or behind the tap; the tap's page
// address goes to urlFile, when set.
func startPipe(b *testing.B, tap bool, urlFile string) *acpexec.Process {
	cmd := exec.Command("cat")
	if tap {
		bin, err := inspectBin()
		if err != nil {
			b.Fatal(err)
		}
		ui := []string{"-ui", ""}
		if urlFile != "" {
			ui = []string{"-ui", "127.0.0.1:0", "-url-file", urlFile}
		}
		cmd = exec.Command(bin, append(ui, "--", "cat")...)
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

// pipe is a client of cat, direct or through the tap.
type pipe struct {
	p *acpexec.Process
	r *bufio.Reader
}

func newPipe(b *testing.B, tap bool, urlFile string) *pipe {
	p := startPipe(b, tap, urlFile)
	return &pipe{p: p, r: bufio.NewReaderSize(p, 1<<20)}
}

// roundTrip writes line and reads it back.
func (p *pipe) roundTrip(b *testing.B, line []byte) time.Duration {
	start := time.Now()
	if _, err := p.p.Write(line); err != nil {
		b.Fatal(err)
	}
	if _, err := p.r.ReadSlice('\n'); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// stream writes n lines from lines[first:], the writer never waiting for
// the reader, and reads them back.
func (p *pipe) stream(b *testing.B, lines [][]byte, first, n int) time.Duration {
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(p.p, 64<<10)
		for i := range n {
			if _, err := w.Write(lines[(first+i)%len(lines)]); err != nil {
				done <- err
				return
			}
		}
		done <- w.Flush()
	}()
	for range n {
		if _, err := p.r.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

func quantile(d []time.Duration, q float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(float64(len(s)-1)*q)]
}

// BenchmarkTapRoundTrip: one message to the agent and back at a time,
// alternately on a direct pipe and through the tap, b.N round trips each:
// the p50 and p99 of each, and the tap's added latency (the difference of
// the two, for a message there and back: two passes through the tap).
func BenchmarkTapRoundTrip(b *testing.B) {
	direct, tap := newPipe(b, false, ""), newPipe(b, true, "")
	lines := tapLines()
	dl := make([]time.Duration, 0, b.N)
	tl := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		line := lines[i%len(lines)]
		dl = append(dl, direct.roundTrip(b, line))
		tl = append(tl, tap.roundTrip(b, line))
	}
	b.StopTimer()
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	b.ReportMetric(us(quantile(dl, .5)), "direct-p50-µs")
	b.ReportMetric(us(quantile(dl, .99)), "direct-p99-µs")
	b.ReportMetric(us(quantile(tl, .5)), "tap-p50-µs")
	b.ReportMetric(us(quantile(tl, .99)), "tap-p99-µs")
	b.ReportMetric(us(quantile(tl, .5)-quantile(dl, .5)), "added-p50-µs")
	b.ReportMetric(us(quantile(tl, .99)-quantile(dl, .99)), "added-p99-µs")
}

// BenchmarkTapThroughput: messages of the workload streamed to the agent
// and back, the writer never waiting for the reader, b.N messages on a
// direct pipe, b.N through bench/relay (a process copying both ways and
// recording nothing: the floor of any process in between) and b.N through
// the tap, in alternating bursts of 5,000 (a busy turn's worth), so that
// all three see the same load of the machine.
//
// burst: between bursts, outside the timing, the tap's recorder catches
// up (what a turn followed by a person's pause gives it); flood: the
// bursts follow each other at once, the recorder working while the
// traffic flows. Each reports the share of the messages recorded; the
// rest was dropped, and counted, when the recorder fell behind by more
// than its bound. The ratios are of the totals, and the medians of the
// ratios of each burst.
func BenchmarkTapThroughput(b *testing.B) {
	for _, mode := range []string{"burst", "flood"} {
		b.Run(mode, func(b *testing.B) {
			urlFile := filepath.Join(b.TempDir(), "url")
			direct, relay, tap := newPipe(b, false, ""), startRelay(b), newPipe(b, true, urlFile)
			page := tapPage(b, urlFile)
			lines := tapLines()
			size := 0
			for _, l := range lines {
				size += len(l)
			}
			b.SetBytes(int64(size / len(lines)))
			const burst = 5000
			var dt, rt, tt time.Duration
			var ds, rs, ts []time.Duration // of each burst
			b.ResetTimer()
			for done := 0; done < b.N; done += burst {
				n := min(burst, b.N-done)
				ds = append(ds, direct.stream(b, lines, done, n))
				rs = append(rs, relay.stream(b, lines, done, n))
				ts = append(ts, tap.stream(b, lines, done, n))
				dt, rt, tt = dt+ds[len(ds)-1], rt+rs[len(rs)-1], tt+ts[len(ts)-1]
				if mode == "burst" {
					b.StopTimer()
					page.wait(b, 2*(done+n), time.Millisecond)
					b.StartTimer()
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N)/dt.Seconds(), "direct-msgs/s")
			b.ReportMetric(float64(b.N)/tt.Seconds(), "tap-msgs/s")
			b.ReportMetric(100*dt.Seconds()/tt.Seconds(), "tap/direct-%")
			b.ReportMetric(100*dt.Seconds()/rt.Seconds(), "relay/direct-%")
			b.ReportMetric(100*rt.Seconds()/tt.Seconds(), "tap/relay-%")
			b.ReportMetric(medianRatio(ds, ts), "tap/direct-med-%")
			b.ReportMetric(medianRatio(rs, ts), "tap/relay-med-%")
			b.ReportMetric(medianRatio(ds, rs), "relay/direct-med-%")
			s := page.wait(b, 2*b.N, 100*time.Millisecond)
			b.ReportMetric(100*float64(s.Messages)/float64(2*b.N), "recorded-%")
			b.ReportMetric(float64(s.Dropped), "dropped")
		})
	}
}

// medianRatio is the median over the bursts of 100·a/b: on a loaded
// machine a few bursts take ten times as long as the rest, whichever pipe
// they fall on, and weigh on the totals' ratios.
func medianRatio(a, b []time.Duration) float64 {
	r := make([]float64, len(a))
	for i := range a {
		r[i] = 100 * a[i].Seconds() / b[i].Seconds()
	}
	slices.Sort(r)
	return r[len(r)/2]
}

// tapPageURL is the page of a tap, read from its -url-file.
type tapPageURL struct{ host, token string }

func tapPage(b *testing.B, urlFile string) tapPageURL {
	var raw []byte
	var err error
	for start := time.Now(); time.Since(start) < 30*time.Second; time.Sleep(10 * time.Millisecond) {
		if raw, err = os.ReadFile(urlFile); err == nil && len(raw) > 0 && raw[len(raw)-1] == '\n' {
			break
		}
	}
	if err != nil {
		b.Fatal(err)
	}
	u, err := url.Parse(strings.TrimSpace(string(raw)))
	if err != nil {
		b.Fatal(err)
	}
	return tapPageURL{u.Host, u.Query().Get("token")}
}

type tapSummary struct{ Messages, Dropped int }

// wait asks the page, every poll, for its summary until want messages are
// recorded or dropped, or the count stands still for 2 s (a minute at
// most), and returns the last summary.
func (p tapPageURL) wait(b *testing.B, want int, poll time.Duration) tapSummary {
	var s tapSummary
	deadline := time.Now().Add(time.Minute)
	last, since := -1, time.Now()
	for time.Now().Before(deadline) {
		req, _ := http.NewRequest("GET", "http://"+p.host+"/api/summary", nil)
		req.AddCookie(&http.Cookie{Name: "acpinspect_token", Value: p.token})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		err = json.NewDecoder(resp.Body).Decode(&s)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		if s.Messages+s.Dropped >= want {
			break
		}
		if s.Messages != last {
			last, since = s.Messages, time.Now()
		} else if time.Since(since) > 2*time.Second {
			break
		}
		time.Sleep(poll)
	}
	return s
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
