package conntest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// valve is a writer that passes writes on until it is shut; then they wait
// until it is closed, which closes the writer behind it.
type valve struct {
	w       io.WriteCloser
	mu      sync.Mutex
	shut    chan struct{}
	closed  bool
	waiting chan struct{} // when not nil, told of each write that waits
}

func (v *valve) Write(b []byte) (int, error) {
	v.mu.Lock()
	shut, waiting := v.shut, v.waiting
	v.mu.Unlock()
	if shut != nil {
		if waiting != nil {
			select {
			case waiting <- struct{}{}:
			default:
			}
		}
		<-shut
	}
	return v.w.Write(b)
}

// Shut makes the writes wait.
func (v *valve) Shut() {
	v.mu.Lock()
	v.shut = make(chan struct{})
	v.mu.Unlock()
}

func (v *valve) Close() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.closed {
		v.closed = true
		if v.shut != nil {
			close(v.shut)
		}
	}
	return v.w.Close()
}

// NeverReads: once the client stops reading the agent's output, the agent's
// notifications and calls return ctx.Err() by their deadline, the agent
// still reads and handles what the client sends, and once the stall limit
// has passed the connection ends saying so, failing the pending call.
func NeverReads(t *testing.T, pkg *Package, closed error) {
	agentIn, toAgent := io.Pipe()
	clientIn, toClient := io.Pipe()
	out := &valve{w: toClient}
	agent, client := &Handlers{}, &Handlers{}
	cancelled := make(chan string, 1)
	agentHandlers(pkg, agent, func(s string) { cancelled <- s })
	const stall = 3 * time.Second
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	agentConn, agentCalls := pkg.Agent(agent, out, agentIn, Options{MaxBufferedBytes: 4 << 10, OutputStall: stall, Logger: quiet})
	clientConn, clientCalls := pkg.Client(client, toAgent, clientIn, Options{Logger: quiet})
	t.Cleanup(func() { agentConn.Close(); clientConn.Close(); toAgent.Close(); out.Close() })
	if _, err := clientCalls["initialize"](Ctx(t), pkg.InitializeParams); err != nil {
		t.Fatal(err)
	}
	out.Shut()
	start := time.Now()
	pending := make(chan error, 1)
	go func() {
		_, err := agentCalls["session/request_permission"](context.Background(), fmt.Sprintf(pkg.PermissionParams, "pending"))
		pending <- err
	}()
	big := Chunk("s", strings.Repeat("x", 1000))
	full := false
	for i := 0; i < 50 && !full; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		began := time.Now()
		_, err := agentCalls["session/update"](ctx, big)
		cancel()
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			full = true
		case err != nil:
			t.Fatalf("notification %d: %v", i, err)
		}
		if d := time.Since(began); d > time.Second {
			t.Fatalf("notification %d returned after %v, its deadline 300ms", i, d)
		}
	}
	if !full {
		t.Fatal("the output queue never filled")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	began := time.Now()
	_, err := agentCalls["session/request_permission"](ctx, fmt.Sprintf(pkg.PermissionParams, "late"))
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(began) > time.Second {
		t.Fatalf("a call while the peer reads nothing: %v after %v", err, time.Since(began))
	}
	// The agent still reads: the client's notification is handled.
	if _, err := clientCalls["session/cancel"](Ctx(t), `{"sessionId":"read"}`); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-cancelled:
		if s != "read" {
			t.Errorf("cancelled %q", s)
		}
	case <-time.After(stall / 2):
		t.Fatal("the agent stopped reading while its output was stuck")
	}
	select {
	case <-agentConn.Done():
	case <-time.After(stall + 5*time.Second):
		t.Fatal("the stalled connection did not end")
	}
	if d := time.Since(start); d < stall {
		t.Errorf("the connection ended after %v, before the stall limit %v", d, stall)
	}
	if err := agentConn.Err(); !errors.Is(err, closed) || !strings.Contains(err.Error(), "stalled") {
		t.Errorf("Err of a stalled connection: %v", err)
	}
	select {
	case err := <-pending:
		if !errors.Is(err, closed) {
			t.Errorf("the pending call: %v", err)
		}
	case <-time.After(time.Second):
		t.Error("the pending call did not fail when the connection ended")
	}
}

// HugeLine sends lines of 200 MB and 40 MB to an agent with the default
// limits: they are answered -32600 with the request's id and -32700 with
// id null, without being held in memory whole, and the connection serves
// on; a response of 40 MB fails the call it answers.
func HugeLine(t *testing.T, pkg *Package) {
	hs := &Handlers{}
	hs.Set("session/prompt", func(context.Context, json.RawMessage) (any, error) {
		return json.RawMessage(pkg.PromptResult), nil
	})
	peer := NewRawAgentPeer(t, pkg, hs, false)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	sent := make(chan error, 1)
	go func() {
		sent <- writeLong(peer.w, `{"jsonrpc":"2.0","id":"big","method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"`, 200<<20, `"}]}}`)
	}()
	limit := `the message is longer than the limit of 33554432 bytes`
	if got, want := peer.Recv(), `{"jsonrpc":"2.0","id":"big","error":{"code":-32600,"message":"Invalid request","data":{"details":"`+limit+`"}}}`; got != want {
		t.Errorf("got %.300s\nwant %s", got, want)
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	go func() {
		sent <- writeLong(peer.w, `{"jsonrpc":"2.0","params":"`, 40<<20, `","method":"session/update"}`)
	}()
	if got, want := peer.Recv(), `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":{"details":"`+limit+`"}}}`; got != want {
		t.Errorf("got %.300s\nwant %s", got, want)
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	close(stop)
	<-sampled
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	grown := int64(peak.Load()) - int64(before.HeapAlloc)
	t.Logf("240 MB of lines: %d MB allocated, heap grown by %d MB at most", allocated>>20, grown>>20)
	if allocated > 100<<20 || grown > 100<<20 {
		t.Errorf("reading 240 MB of lines allocated %d MB, the heap grew by %d MB: a line was held whole", allocated>>20, grown>>20)
	}
	peer.Exchange([]Line{{`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"x"}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":` + pkg.PromptResult + `}`}})
	// A response over the limit fails its call.
	called := make(chan error, 1)
	go func() {
		_, err := peer.Conn.ExtMethod(Ctx(t), "_x/big", nil)
		called <- err
	}()
	if got, want := peer.Recv(), `{"jsonrpc":"2.0","id":1,"method":"_x/big"}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if err := writeLong(peer.w, `{"jsonrpc":"2.0","id":1,"result":"`, 40<<20, `"}`); err != nil {
		t.Fatal(err)
	}
	if err := <-called; err == nil || !strings.Contains(err.Error(), "longer than the limit of 33554432 bytes") {
		t.Errorf("a call answered over the limit: %v", err)
	}
}

// writeLong writes head, n bytes of 'x' and tail as one line, a MiB at a
// time.
func writeLong(w io.Writer, head string, n int, tail string) error {
	if _, err := io.WriteString(w, head); err != nil {
		return err
	}
	chunk := bytes.Repeat([]byte{'x'}, 1<<20)
	for ; n > 0; n -= len(chunk) {
		if _, err := w.Write(chunk[:min(n, len(chunk))]); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, tail+"\n")
	return err
}

// ManyRequests sends 100,000 requests to a handler that waits: the agent
// serves as many at once as its limit allows and stops reading, so the
// goroutines stay bounded; once the handlers return, every request is
// answered.
func ManyRequests(t *testing.T, pkg *Package) {
	const total, limit = 100000, 256
	hs := &Handlers{}
	release := make(chan struct{})
	var running, most, started atomic.Int64
	hs.Set("session/prompt", func(context.Context, json.RawMessage) (any, error) {
		started.Add(1)
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release
		running.Add(-1)
		return json.RawMessage(pkg.PromptResult), nil
	})
	peer := NewRawAgentPeer(t, pkg, hs, false)
	base := runtime.NumGoroutine()
	var written atomic.Int64
	sent := make(chan error, 1)
	go func() {
		var b []byte
		for i := 0; i < total; i++ {
			b = fmt.Appendf(b, `{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"x"}]}}`+"\n", i)
			if (i+1)%1000 == 0 {
				if _, err := peer.w.Write(b); err != nil {
					sent <- err
					return
				}
				written.Add(1000)
				b = b[:0]
			}
		}
		sent <- nil
	}()
	deadline := time.Now().Add(30 * time.Second)
	for started.Load() < limit && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	goroutines := runtime.NumGoroutine() - base
	if n := started.Load(); n != limit {
		t.Errorf("%d handlers started, want the limit %d", n, limit)
	}
	if w := written.Load(); w >= total {
		t.Errorf("all %d requests were read while %d handlers waited", w, limit)
	}
	if goroutines > limit+20 {
		t.Errorf("%d goroutines more while %d requests wait", goroutines, limit)
	}
	close(release)
	for i := 0; i < total; i++ {
		if got := peer.Recv(); !strings.Contains(got, `"result"`) {
			t.Fatalf("answer %d: %s", i, got)
		}
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	if m := most.Load(); m > limit {
		t.Errorf("%d handlers ran at once, over the limit %d", m, limit)
	}
}

// CloseMidCall closes both connections while a call waits on each side:
// the caller's call fails with closed at once, the handler's context is
// cancelled and Close returns after the handler has; no goroutine of the
// connections is left.
func CloseMidCall(t *testing.T, pkg *Package, closed error) {
	base := runtime.NumGoroutine()
	p := NewPair(t, pkg)
	started := make(chan struct{})
	handled := make(chan error, 1)
	p.Agent.Set("session/prompt", func(ctx context.Context, _ json.RawMessage) (any, error) {
		close(started)
		<-ctx.Done()
		time.Sleep(20 * time.Millisecond) // Close waits for this
		handled <- ctx.Err()
		return nil, ctx.Err()
	})
	called := make(chan error, 1)
	go func() {
		_, err := p.ClientCall(context.Background(), "session/prompt", TextPrompt("s", "x"))
		called <- err
	}()
	select {
	case <-started:
	case err := <-called:
		t.Fatalf("the call ended before its handler started: %v", err)
	}
	if err := p.AgentConn.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	select {
	case err := <-handled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the handler's context ended with %v", err)
		}
	default:
		t.Error("Close returned before the handler")
	}
	if err := p.AgentConn.Err(); !errors.Is(err, closed) {
		t.Errorf("Err after Close: %v", err)
	}
	if err := p.ClientConn.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	select {
	case err := <-called:
		if !errors.Is(err, closed) {
			t.Errorf("the call pending on Close: %v", err)
		}
	case <-time.After(time.Second):
		t.Error("the call pending on Close did not fail")
	}
	if _, err := p.ClientCall(Ctx(t), "session/new", `{"cwd":"/","mcpServers":[]}`); !errors.Is(err, closed) {
		t.Errorf("a call after Close: %v", err)
	}
	if err := p.ClientConn.Close(); err != nil {
		t.Errorf("Close again: %v", err)
	}
	for deadline := time.Now().Add(2 * time.Second); runtime.NumGoroutine() > base && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines before, %d after Close:\n%s", base, n, buf[:runtime.Stack(buf, true)])
	}
}

// IDs checks how requests are told apart: id null (answered want), the
// same number written two ways, cancelled each by its own id, and a second
// request with the id of one in flight, refused and not run.
func IDs(t *testing.T, pkg *Package, nullAnswer string) {
	hs := &Handlers{}
	var runs atomic.Int64
	hs.Set("session/prompt", func(ctx context.Context, _ json.RawMessage) (any, error) {
		runs.Add(1)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	peer := NewRawAgentPeer(t, pkg, hs, false)
	prompt := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"x"}]}}`
	}
	cancel := func(id string) string {
		return `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":` + id + `}}`
	}
	cancelled := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32800,"message":"Request cancelled"}}`
	}
	peer.Exchange([]Line{
		{`{"jsonrpc":"2.0","id":null,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`, nullAnswer},
		{prompt("1"), ""},
		{prompt("1.0"), ""},
		{prompt("1"), `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid request","data":{"details":"a request with this id is already being served"}}}`},
		{cancel("1.0"), cancelled("1.0")},
		{cancel("1"), cancelled("1")},
		{prompt(`"` + strings.Repeat("i", 1025) + `"`), `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request","data":{"details":"the id is longer than 1024 characters"}}}`},
		// Once answered, an id may be used again.
		{prompt("1"), ""},
		{cancel("1"), cancelled("1")},
	})
	if n := runs.Load(); n != 3 {
		t.Errorf("the handler ran %d times, want 3", n)
	}
}

// PanicLogged: a handler's panic is answered -32603 without its text,
// which goes to the connection's logger with the stack.
func PanicLogged(t *testing.T, pkg *Package) {
	hs := &Handlers{}
	hs.Set("session/prompt", func(context.Context, json.RawMessage) (any, error) {
		var m map[string]int
		m["secret"] = 1 // a nil map: the panic names the runtime
		return nil, nil
	})
	var log safeBuffer
	peer := NewRawAgentPeerWith(t, pkg, hs, false, Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	peer.Exchange([]Line{{`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"x"}]}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error"}}`}})
	if got := log.String(); !strings.Contains(got, "assignment to entry in nil map") || !strings.Contains(got, "session/prompt") || !strings.Contains(got, "goroutine") {
		t.Errorf("the log of the panic: %s", got)
	}
}

// safeBuffer is a bytes.Buffer for concurrent use.
type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
