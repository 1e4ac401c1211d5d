package conntest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Open lets the writes that wait through, and those that come after.
func (v *valve) Open() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.shut != nil && !v.closed {
		close(v.shut)
	}
	v.shut = nil
}

// stuckAgent is an agent whose output waits behind a valve, read line by
// line: the peer closes its input with toAgent.
type stuckAgent struct {
	conn    Conn
	calls   map[string]Call
	toAgent *io.PipeWriter
	out     *valve
	lines   *bufio.Scanner
}

func newStuckAgent(t *testing.T, pkg *Package, o Options) *stuckAgent {
	in, toAgent := io.Pipe()
	fromAgent, w := io.Pipe()
	out := &valve{w: w}
	hs := &Handlers{}
	agentHandlers(pkg, hs, func(string) {})
	o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	conn, calls := pkg.Agent(hs, out, in, o)
	a := &stuckAgent{conn: conn, calls: calls, toAgent: toAgent, out: out, lines: bufio.NewScanner(fromAgent)}
	t.Cleanup(func() { toAgent.Close(); out.Close(); fromAgent.Close(); conn.Close() })
	if _, err := io.WriteString(toAgent, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":`+pkg.InitializeParams+`}`+"\n"); err != nil {
		t.Fatal(err)
	}
	if !a.lines.Scan() || !strings.Contains(a.lines.Text(), `"result"`) {
		t.Fatalf("initialize: %s %v", a.lines.Text(), a.lines.Err())
	}
	return a
}

// FlushOnPeerClose: the messages an agent has queued when its peer closes
// the agent's input still go out, in order, before Done is closed.
func FlushOnPeerClose(t *testing.T, pkg *Package, closed error) {
	a := newStuckAgent(t, pkg, Options{OutputStall: 10 * time.Second})
	a.out.waiting = make(chan struct{}, 1)
	a.out.Shut()
	const n = 20
	for i := range n {
		if i == 1 { // the first is being written, the others wait in the queue
			select {
			case <-a.out.waiting:
			case <-time.After(5 * time.Second):
				t.Fatal("the first notification was not written")
			}
		}
		if _, err := a.calls["session/update"](Ctx(t), Chunk("s", fmt.Sprint("u", i))); err != nil {
			t.Fatalf("notification %d: %v", i, err)
		}
	}
	a.toAgent.Close()
	select {
	case <-a.conn.Done():
		t.Fatal("Done was closed with output queued")
	case <-time.After(100 * time.Millisecond):
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		for a.lines.Scan() {
			lines <- a.lines.Text()
		}
	}()
	a.out.Open()
	for i := range n {
		var line string
		select {
		case line = <-lines:
		case <-time.After(5 * time.Second):
			t.Fatalf("notification %d was not written", i)
		}
		if want := fmt.Sprintf(`"u%d"`, i); !strings.Contains(line, want) {
			t.Fatalf("line %d: %s, want the text %s", i, line, want)
		}
	}
	select {
	case <-a.conn.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Done was not closed once the output was written")
	}
	if err := a.conn.Err(); !errors.Is(err, closed) || !strings.Contains(err.Error(), "peer closed") {
		t.Errorf("Err: %v", err)
	}
}

// FlushBoundedByStall: when the peer closes the agent's input and reads
// nothing more, the queued output is given up after the stall limit, and
// Done is closed.
func FlushBoundedByStall(t *testing.T, pkg *Package) {
	const stall = 500 * time.Millisecond
	a := newStuckAgent(t, pkg, Options{OutputStall: stall})
	a.out.Shut()
	for i := range 5 {
		if _, err := a.calls["session/update"](Ctx(t), Chunk("s", fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	a.toAgent.Close()
	select {
	case <-a.conn.Done():
	case <-time.After(stall + 5*time.Second):
		t.Fatal("Done was not closed after the stall limit")
	}
	if d := time.Since(start); d < stall/2 {
		t.Errorf("Done after %v, before the stall limit %v", d, stall)
	}
}

// DerivedContext: a context derived from a handler's context ends when the
// request is cancelled, and deriving it starts no goroutine.
func DerivedContext(t *testing.T, pkg *Package) {
	p := NewPair(t, pkg)
	started := make(chan int, 1)
	ended := make(chan error, 1)
	p.Agent.Set("session/prompt", func(ctx context.Context, _ json.RawMessage) (any, error) {
		before := runtime.NumGoroutine()
		derived, cancel := context.WithTimeout(ctx, time.Hour)
		defer cancel()
		started <- runtime.NumGoroutine() - before
		<-derived.Done()
		ended <- derived.Err()
		return nil, derived.Err()
	})
	ctx, cancel := context.WithCancel(Ctx(t))
	go func() {
		if more := <-started; more > 0 {
			t.Errorf("deriving a context started %d goroutines", more)
		}
		cancel()
	}()
	if _, err := p.ClientCall(ctx, "session/prompt", TextPrompt("s", "x")); !errors.Is(err, context.Canceled) {
		t.Errorf("the cancelled call: %v", err)
	}
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the derived context ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the derived context did not end when the request was cancelled")
	}
}

// IdleGoroutines: once a pair of connections has served a burst of
// requests at once and then nothing for a while, each connection is left
// with its reader alone: the workers and the writers have ended.
func IdleGoroutines(t *testing.T, pkg *Package) {
	base := runtime.NumGoroutine()
	p := NewPair(t, pkg)
	ctx := Ctx(t)
	const burst = 8
	var wg sync.WaitGroup
	release := make(chan struct{})
	var started sync.WaitGroup
	started.Add(burst)
	p.Agent.Set("session/prompt", func(context.Context, json.RawMessage) (any, error) {
		started.Done()
		<-release
		return json.RawMessage(pkg.PromptResult), nil
	})
	for range burst {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := p.ClientCall(ctx, "session/prompt", TextPrompt("s", "x")); err != nil {
				t.Error(err)
			}
		}()
	}
	started.Wait()
	close(release)
	wg.Wait()
	want := base + 2 // the reader of each connection
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > want {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines for an idle pair, want %d:\n%s", n-base, want-base, buf[:runtime.Stack(buf, true)])
	}
}
