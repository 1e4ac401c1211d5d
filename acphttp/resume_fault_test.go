package acphttp_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// faultSeed is added to the seeds of TestResumeFaults' fault proxies:
// -faultseed=N runs other sequences of faults.
var faultSeed = flag.Uint64("faultseed", 0, "added to the seeds of TestResumeFaults' fault proxies")

// testKeepAlive is the keep-alive interval of the resumable tests: short,
// so that a half-open stream is found out fast.
const testKeepAlive = 20 * time.Millisecond

// resumableServer starts the echo agent on a resumable server and returns
// its host:port.
func resumableServer(t *testing.T, r *acphttp.Resumable) (*acphttp.Server, string) {
	t.Helper()
	if r == nil {
		r = &acphttp.Resumable{}
	}
	if r.KeepAlive == 0 {
		r.KeepAlive = testKeepAlive
	}
	s := acphttp.NewServer(connectEcho, &acphttp.Options{Resumable: r, ErrorLog: log.New(io.Discard, "", 0)})
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = s.Shutdown(ctx)
		ts.Close()
	})
	return s, strings.TrimPrefix(ts.URL, "http://")
}

// reconnecting returns client options that reconnect fast, and tell
// rebuilt of each session taken back.
func reconnecting(rebuilt *[]acphttp.Rebuilt, mu *sync.Mutex) *acphttp.ClientOptions {
	return &acphttp.ClientOptions{Reconnect: &acphttp.Reconnect{
		MaxTries: 40, MinDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond, KeepAlive: testKeepAlive,
		OnRebuilt: func(r acphttp.Rebuilt) {
			mu.Lock()
			*rebuilt = append(*rebuilt, r)
			mu.Unlock()
		},
	}}
}

// streamingTurns drives prompts of blocks blocks each over conn in
// session, until the proxy has made drops faults or the deadline passes,
// and returns the texts the agent was asked to say, in order.
func streamingTurns(t *testing.T, conn *acpv1.ClientSideConnection, session acpv1.SessionID, p *faultProxy, drops int64, blocks int, deadline time.Time) []string {
	t.Helper()
	var want []string
	for turn := 0; p.faults() < drops && time.Now().Before(deadline); turn++ {
		prompt := make([]acpv1.ContentBlock, blocks)
		for i := range prompt {
			text := fmt.Sprintf("t%d.%d", turn, i)
			prompt[i] = acpv1.NewContentBlockText(text)
			want = append(want, text)
		}
		want = append(want, "permission: allow")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		r, err := conn.Prompt(ctx, acpv1.NewPromptRequest(session, prompt))
		cancel()
		if err != nil {
			dumpGoroutines(t)
			t.Fatalf("turn %d, after %d faults: %v", turn, p.faults(), err)
		}
		if r.StopReason != acpv1.StopReasonEndTurn {
			t.Fatalf("turn %d: stop reason %q", turn, r.StopReason)
		}
	}
	return want
}

// compareTexts counts what got lost, got twice, and got out of order
// against want.
func compareTexts(want, got []string) (lost, dup, disorder int) {
	seen := map[string]int{}
	for _, g := range got {
		seen[g]++
	}
	count := map[string]int{}
	for _, w := range want {
		count[w]++
	}
	for w, n := range count {
		if seen[w] < n {
			lost += n - seen[w]
		}
		if seen[w] > n {
			dup += seen[w] - n
		}
	}
	// Order: got, duplicates aside, is want.
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
			continue
		}
		disorder++
	}
	return lost, dup, disorder - dup
}

// TestResumeFaults runs streaming turns through a proxy that cuts, stalls
// and half-opens the connections at seeded random points, on both
// profiles: across the drops no message is lost, none is given twice,
// the order holds, and no session had to be rebuilt.
func TestResumeFaults(t *testing.T) {
	drops := int64(500) // per profile: 1,000 in all
	if testing.Short() {
		drops = 100
	}
	for i, profile := range []string{"http", "ws"} {
		t.Run(profile, func(t *testing.T) {
			_, addr := resumableServer(t, &acphttp.Resumable{Grace: 10 * time.Second})
			p := newFaultProxy(t, addr, uint64(42+i)+*faultSeed)
			var mu sync.Mutex
			var rebuilt []acphttp.Rebuilt
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			tr, err := acphttp.Dial(ctx, profile+"://"+p.addr()+"/", reconnecting(&rebuilt, &mu))
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			rec := &recorder{}
			conn := acpv1.NewClientSideConnection(rec, tr, tr)
			if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
				t.Fatal(err)
			}
			s, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
			if err != nil {
				t.Fatal(err)
			}
			p.setFaults(8, 1, 1)
			start := time.Now()
			want := streamingTurns(t, conn, s.SessionID, p, drops, 40, start.Add(40*time.Second))
			p.setFaults(0, 0, 0)
			elapsed := time.Since(start)
			rec.mu.Lock()
			got := append([]string(nil), rec.text[s.SessionID]...)
			rec.mu.Unlock()
			lost, dup, disorder := compareTexts(want, got)
			t.Logf("%s: %d faults (%d cuts, %d stalls, %d half-open) over %d TCP connections in %v; %d messages: %d lost, %d duplicated, %d out of order",
				profile, p.faults(), p.cuts.Load(), p.stalls.Load(), p.halfOpens.Load(), p.accepted.Load(), elapsed.Round(time.Millisecond), len(want), lost, dup, disorder)
			if p.faults() < drops {
				t.Errorf("only %d faults within the time bound, want %d", p.faults(), drops)
			}
			if lost != 0 || dup != 0 || disorder != 0 {
				t.Errorf("%d lost, %d duplicated, %d out of order", lost, dup, disorder)
			}
			mu.Lock()
			if len(rebuilt) != 0 {
				t.Errorf("sessions rebuilt: %+v", rebuilt)
			}
			mu.Unlock()
		})
	}
}

// dumpGoroutines logs the stacks of every goroutine: a turn that hangs
// tells where the client and the server wait.
func dumpGoroutines(t *testing.T) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	t.Logf("goroutines:\n%s", buf)
}
