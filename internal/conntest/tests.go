package conntest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// Echo: a session, a prompt whose chunks arrive before its answer, and a
// notification handled before the request that follows it.
func Echo(t *testing.T, pkg *Package) {
	p := NewPair(t, pkg)
	ctx := Ctx(t)
	s, err := p.ClientCall(ctx, "session/new", `{"cwd":"/w","mcpServers":[]}`)
	if err != nil || !jsonEqual(s, `{"sessionId":"s-/w"}`) {
		t.Fatalf("session/new: %s, %v", s, err)
	}
	r, err := p.ClientCall(ctx, "session/prompt", TextPrompt("s-/w", "a", "b", "c"))
	if err != nil || !jsonEqual(r, pkg.PromptResult) {
		t.Fatalf("prompt: %s, %v", r, err)
	}
	if got := strings.Join(p.Chunks(), ","); got != "a,b,c" {
		t.Errorf("chunks %q, want a,b,c", got)
	}
	if _, err := p.ClientCall(ctx, "session/cancel", `{"sessionId":"x"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := p.ClientCall(ctx, "session/prompt", TextPrompt("x", "hi")); err != nil {
		t.Fatal(err)
	}
	if got := p.Cancels(); len(got) != 1 || got[0] != "x" {
		t.Errorf("cancels %v", got)
	}
}

// NotificationOrder: 500 chunks of one prompt arrive in the order sent.
func NotificationOrder(t *testing.T, pkg *Package) {
	p := NewPair(t, pkg)
	var texts []string
	for i := 0; i < 500; i++ {
		texts = append(texts, fmt.Sprint(i))
	}
	if _, err := p.ClientCall(Ctx(t), "session/prompt", TextPrompt("s", texts...)); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.Chunks(), ","); got != strings.Join(texts, ",") {
		t.Errorf("chunks out of order: %.200s…", got)
	}
}

// Concurrent makes 100 concurrent calls each way, each answered with what
// names it.
func Concurrent(t *testing.T, pkg *Package) {
	p := NewPair(t, pkg)
	ctx := Ctx(t)
	p.Agent.Set("session/prompt", func(ctx context.Context, raw json.RawMessage) (any, error) {
		var r promptParams
		err := json.Unmarshal(raw, &r)
		time.Sleep(time.Millisecond)
		var res map[string]any
		_ = json.Unmarshal([]byte(pkg.PromptResult), &res)
		res["_meta"] = map[string]string{"id": r.SessionID}
		return res, err
	})
	p.Client.Set("session/request_permission", func(ctx context.Context, raw json.RawMessage) (any, error) {
		var r promptParams
		err := json.Unmarshal(raw, &r)
		return Selected(r.SessionID), err
	})
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := 0; i < 100; i++ {
		wg.Add(2)
		id := fmt.Sprint("s", i)
		go func() {
			defer wg.Done()
			r, err := p.ClientCall(ctx, "session/prompt", TextPrompt(id, "hi"))
			if err == nil && !strings.Contains(string(r), `"_meta":{"id":"`+id+`"}`) {
				err = fmt.Errorf("prompt %s answered %s", id, r)
			}
			errs <- err
		}()
		go func() {
			defer wg.Done()
			r, err := p.AgentCall(ctx, "session/request_permission", fmt.Sprintf(pkg.PermissionParams, id))
			if err == nil && !jsonEqual(r, string(Selected(id))) {
				err = fmt.Errorf("permission %s answered %s", id, r)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// CancelOutbound cancels a call on each side: the caller gets ctx.Err()
// and the handler's context is cancelled; the connection serves on.
func CancelOutbound(t *testing.T, pkg *Package) {
	p := NewPair(t, pkg)
	ctx := Ctx(t)
	handlerErr := make(chan error, 1)
	waiter := func(started chan struct{}) Handler {
		return func(ctx context.Context, _ json.RawMessage) (any, error) {
			close(started)
			<-ctx.Done()
			handlerErr <- ctx.Err()
			return nil, ctx.Err()
		}
	}
	for _, c := range []struct {
		hs             *Handlers
		method, params string
		call           func(context.Context, string, string) (json.RawMessage, error)
	}{
		{p.Agent, "session/prompt", TextPrompt("s", "hi"), p.ClientCall},
		{p.Client, "session/request_permission", fmt.Sprintf(pkg.PermissionParams, "s"), p.AgentCall},
	} {
		started := make(chan struct{})
		c.hs.Set(c.method, waiter(started))
		callCtx, cancel := context.WithCancel(ctx)
		go func() { <-started; cancel() }()
		if _, err := c.call(callCtx, c.method, c.params); !isCancel(err) {
			t.Fatalf("cancelled %s: %v", c.method, err)
		}
		if err := <-handlerErr; !isCancel(err) {
			t.Fatalf("%s handler: %v", c.method, err)
		}
	}
	p.Agent.Set("session/prompt", p.Echo)
	if _, err := p.ClientCall(ctx, "session/prompt", TextPrompt("s", "after")); err != nil {
		t.Fatal(err)
	}
}

// PeerCloses ends the agent's output while a call waits for it.
func PeerCloses(t *testing.T, pkg *Package, closed error) {
	p := NewPair(t, pkg)
	ctx := Ctx(t)
	started := make(chan struct{})
	p.Agent.Set("session/prompt", func(ctx context.Context, _ json.RawMessage) (any, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	go func() { <-started; p.ToClient.Close() }()
	_, err := p.ClientCall(ctx, "session/prompt", TextPrompt("s", "hi"))
	if !errors.Is(err, closed) || !strings.Contains(err.Error(), "peer closed") {
		t.Fatalf("call pending when the peer closed: %v", err)
	}
	<-p.ClientConn.Done()
	if err := p.ClientConn.Err(); !errors.Is(err, closed) {
		t.Errorf("Err after close: %v", err)
	}
	if _, err := p.ClientCall(ctx, "initialize", pkg.InitializeParams); !errors.Is(err, closed) {
		t.Errorf("call after close: %v", err)
	}
}

// LongLine sends a prompt of 10 MB on one line and gets it back. The
// handlers pass the content block on as it is, and look for the text in the
// chunk, so that encoding/json reads it once.
func LongLine(t *testing.T, pkg *Package) {
	p := NewPair(t, pkg)
	big := strings.Repeat("0123456789", 1<<20)
	p.Agent.Set("session/prompt", func(ctx context.Context, raw json.RawMessage) (any, error) {
		var r struct{ Prompt []json.RawMessage }
		if err := json.Unmarshal(raw, &r); err != nil || len(r.Prompt) != 1 {
			return nil, fmt.Errorf("prompt %.100s: %v", raw, err)
		}
		chunk := `{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","messageId":"m","content":` + string(r.Prompt[0]) + `}}`
		_, err := p.AgentCall(ctx, "session/update", chunk)
		return json.RawMessage(pkg.PromptResult), err
	})
	got := make(chan bool, 1)
	p.Client.Set("session/update", func(ctx context.Context, raw json.RawMessage) (any, error) {
		got <- strings.Contains(string(raw), `"text":"`+big+`"`)
		return nil, nil
	})
	// Lines this long take a while with -race on a busy machine.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := p.ClientCall(ctx, "session/prompt", TextPrompt("s", big)); err != nil {
		t.Fatal(err)
	}
	if !<-got {
		t.Errorf("the 10 MB chunk did not come back whole")
	}
}

// Wire checks each answer byte for byte, in order: the connection answers
// requests as they come and serves on after every error.
func Wire(t *testing.T, pkg *Package) {
	hs := &Handlers{}
	hs.Set("session/prompt", func(ctx context.Context, raw json.RawMessage) (any, error) {
		var p promptParams
		_ = json.Unmarshal(raw, &p)
		switch p.SessionID {
		case "panic":
			panic("boom")
		case "fail":
			return nil, errors.New("it failed")
		case "rpc":
			return nil, fmt.Errorf("wrapped: %w", pkg.NotFound("file:///x"))
		}
		return json.RawMessage(pkg.PromptResult), nil
	})
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil)) // the panic: see PanicLogged
	peer := NewRawAgentPeerWith(t, pkg, hs, false, Options{Logger: quiet})
	peer.Exchange([]Line{
		{`not json`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
		{`{"jsonrpc":"2.0","id":1,"method":"session/prompt"`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
		{`[1,2]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request","data":{"details":"the message is not a JSON object"}}}`},
		{`{"jsonrpc":"2.0","id":7,"method":"no/such"}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found","data":{"method":"no/such"}}}`},
		{`{"jsonrpc":"2.0","method":"no/such"}`, ``},
		{`{"jsonrpc":"2.0","id":8,"method":"session/close","params":{"sessionId":"s"}}`, `{"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"Method not found","data":{"method":"session/close"}}}`},
		{`{"jsonrpc":"2.0","id":"abc","method":"_ext/x","params":{}}`, `{"jsonrpc":"2.0","id":"abc","error":{"code":-32601,"message":"Method not found","data":{"method":"_ext/x"}}}`},
		{`{"jsonrpc":"2.0","id":1.50,"method":"session/prompt","params":{"sessionId":"ok","prompt":[{"type":"text","text":"x"}]}}`, `{"jsonrpc":"2.0","id":1.50,"result":` + pkg.PromptResult + `}`},
		{`{"jsonrpc":"2.0","id":"9","method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":7}]}}`,
			`{"jsonrpc":"2.0","id":"9","error":{"code":-32602,"message":"Invalid params","data":{"details":"json: cannot unmarshal number into Go struct field .prompt.text of type string","path":"prompt.text"}}}`},
		{`{"jsonrpc":"2.0","id":10,"method":"session/prompt"}`, `{"jsonrpc":"2.0","id":10,"error":{"code":-32602,"message":"Invalid params","data":{"details":"params are missing"}}}`},
		{`{"jsonrpc":"2.0","id":11,"method":"session/prompt","params":{"sessionId":"panic","prompt":[{"type":"text","text":"x"}]}}`, `{"jsonrpc":"2.0","id":11,"error":{"code":-32603,"message":"Internal error"}}`},
		{`{"jsonrpc":"2.0","id":12,"method":"session/prompt","params":{"sessionId":"fail","prompt":[{"type":"text","text":"x"}]}}`, `{"jsonrpc":"2.0","id":12,"error":{"code":-32603,"message":"Internal error","data":{"details":"it failed"}}}`},
		{`{"jsonrpc":"2.0","id":13,"method":"session/prompt","params":{"sessionId":"rpc","prompt":[{"type":"text","text":"x"}]}}`, `{"jsonrpc":"2.0","id":13,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"file:///x"}}}`},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, ``},
		{`{"jsonrpc":"2.0","id":99,"result":{}}`, ``},
		{``, ``},
		{`{"id":14,"method":"initialize","params":` + pkg.InitializeParams + `}`, `{"jsonrpc":"2.0","id":14,"error":{"code":-32600,"message":"Invalid request","data":{"details":"the message lacks \"jsonrpc\": \"2.0\""}}}`},
		{`{"jsonrpc":"2.0","id":-3,"method":"session/prompt","params":{"sessionId":"ok","prompt":[{"type":"text","text":"x"}]}}`, `{"jsonrpc":"2.0","id":-3,"result":` + pkg.PromptResult + `}`},
	})
}

// NullPayloads: null params are answered "invalid params", a handler's
// nil result without error is answered with the zero result, and a null
// result of a typed call is its zero result, not an error.
func NullPayloads(t *testing.T, pkg *Package) {
	hs := &Handlers{}
	hs.Set("session/prompt", func(ctx context.Context, raw json.RawMessage) (any, error) { return nil, nil })
	peer := NewRawAgentPeer(t, pkg, hs, false)
	peer.Exchange([]Line{
		{`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":null}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params","data":{"details":"params are missing"}}}`},
	})
	peer.Send(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"ok","prompt":[{"type":"text","text":"x"}]}}`)
	if got := peer.Recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":2,"result":{`) {
		t.Errorf("a nil result answered %s, want the zero result", got)
	}
	type answer struct {
		result json.RawMessage
		err    error
	}
	done := make(chan answer, 1)
	go func() {
		r, err := peer.Call(Ctx(t), "session/request_permission", fmt.Sprintf(pkg.PermissionParams, "s"))
		done <- answer{r, err}
	}()
	if got := peer.Recv(); !strings.Contains(got, `"id":1,"method":"session/request_permission"`) {
		t.Errorf("request %s", got)
	}
	peer.Send(`{"jsonrpc":"2.0","id":1,"result":null}`)
	// The zero result of session/request_permission lacks its required
	// outcome: that it came is all the adapter can tell.
	if a := Receive(t, done, "result"); !errors.Is(a.err, errWritingResult) && (a.err != nil || len(a.result) == 0 || a.result[0] != '{') {
		t.Errorf("a null result: %s, %v; want the zero result", a.result, a.err)
	}
}

// Extensions: extension requests and notifications both ways, raw, and an
// error response to a typed call as the package's *Error.
func Extensions(t *testing.T, pkg *Package) {
	hs := &Handlers{Ext: true}
	noted := make(chan string, 1)
	hs.Set("_notification", func(ctx context.Context, raw json.RawMessage) (any, error) {
		noted <- string(raw)
		return nil, nil
	})
	hs.Set("_method", func(ctx context.Context, raw json.RawMessage) (any, error) { return raw, nil })
	peer := NewRawAgentPeer(t, pkg, hs, false)
	peer.Send(`{"jsonrpc":"2.0","method":"_x/note","params":[1]}`)
	peer.Send(`{"jsonrpc":"2.0","id":1,"method":"_x/get","params":{"a":9007199254740993}}`)
	if got, want := <-noted, `{"method":"_x/note","params":[1]}`; got != want {
		t.Errorf("extension notification %s, want %s", got, want)
	}
	if got, want := peer.Recv(), `{"jsonrpc":"2.0","id":1,"result":{"method":"_x/get","params":{"a":9007199254740993}}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	ctx := Ctx(t)
	done := make(chan json.RawMessage, 1)
	go func() {
		r, err := peer.Conn.ExtMethod(ctx, "_x/ask", map[string]int{"n": 1})
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	if got, want := peer.Recv(), `{"jsonrpc":"2.0","id":1,"method":"_x/ask","params":{"n":1}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	peer.Send(`{"jsonrpc":"2.0","id":1,"result":{"ok":true}}`)
	if r := <-done; string(r) != `{"ok":true}` {
		t.Errorf("ext result %s", r)
	}
	go func() {
		if err := peer.Conn.ExtNotification(ctx, "_x/tell", nil); err != nil {
			t.Error(err)
		}
	}()
	if got, want := peer.Recv(), `{"jsonrpc":"2.0","method":"_x/tell"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	done = make(chan json.RawMessage)
	go func() {
		_, err := peer.Call(ctx, "session/request_permission", fmt.Sprintf(pkg.PermissionParams, "s"))
		if !pkg.IsCode(err, -32602) {
			t.Errorf("error response: %v", err)
		}
		close(done)
	}()
	if got := peer.Recv(); !strings.Contains(got, `"id":2,"method":"session/request_permission"`) {
		t.Errorf("request %s", got)
	}
	peer.Send(`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params"}}`)
	<-done
}

// CancelInbound sends $/cancel_request for a request being served: its
// handler's context ends and the answer is "request cancelled".
func CancelInbound(t *testing.T, pkg *Package) {
	hs := &Handlers{}
	hs.Set("session/prompt", func(ctx context.Context, _ json.RawMessage) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	peer := NewRawAgentPeer(t, pkg, hs, false)
	peer.Send(`{"jsonrpc":"2.0","id":"p1","method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"x"}]}}`)
	peer.Send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"p1"}}`)
	if got, want := peer.Recv(), `{"jsonrpc":"2.0","id":"p1","error":{"code":-32800,"message":"Request cancelled"}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// InitGate checks that an agent answers nothing but initialize before it
// has answered it: before holds the exchange before initialize (the
// package's protocol version decides the answers), which sends the
// session/cancel of the session "early"; after holds the exchange after
// it. handled says whether that notification reaches the agent.
func InitGate(t *testing.T, pkg *Package, handled bool, before, after []Line) {
	hs := &Handlers{}
	hs.Set("session/prompt", func(context.Context, json.RawMessage) (any, error) {
		return json.RawMessage(pkg.PromptResult), nil
	})
	peer := NewRawAgentPeer(t, pkg, hs, true)
	peer.Exchange(before)
	peer.Exchange([]Line{{`{"jsonrpc":"2.0","id":"i","method":"initialize","params":` + pkg.InitializeParams + `}`,
		`{"jsonrpc":"2.0","id":"i","result":` + pkg.InitializeResult + `}`}})
	peer.Exchange(after)
	if got := strings.Join(peer.Cancels(), ","); got != map[bool]string{true: "early"}[handled] {
		t.Errorf("sessions cancelled: %q; the early notification handled: %v", got, handled)
	}
}

// InitGateConcurrent makes a Go client's calls right after its initialize
// returns, from many goroutines: none is refused.
func InitGateConcurrent(t *testing.T, pkg *Package) {
	p := NewPair(t, pkg)
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, err := p.ClientCall(Ctx(t), "session/new", fmt.Sprintf(`{"cwd":"/%d","mcpServers":[]}`, i)); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
}

func jsonEqual(a json.RawMessage, b string) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}

// InitializeFirst sends a request right after initialize, without waiting
// for its result, while the agent's Initialize takes its time: initialize
// is answered first, and the request is served, not refused.
func InitializeFirst(t *testing.T, pkg *Package) {
	hs := &Handlers{}
	peer := NewRawAgentPeer(t, pkg, hs, true)
	release := make(chan struct{})
	hs.Set("initialize", func(context.Context, json.RawMessage) (any, error) {
		<-release
		return json.RawMessage(pkg.InitializeResult), nil
	})
	peer.Send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":` + pkg.InitializeParams + `}`)
	// The line waits in the pipe while initialize is served.
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		peer.Send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`)
	}()
	time.Sleep(10 * time.Millisecond)
	close(release)
	defer func() { <-sent }()
	if got, want := peer.Recv(), `{"jsonrpc":"2.0","id":1,"result":`+pkg.InitializeResult+`}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := peer.Recv(), `{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s-/"}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
