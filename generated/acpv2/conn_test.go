package acpv2

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// testAgent echoes each text block of a prompt as an agent message chunk;
// hooks let a test block or fail a prompt.
type testAgent struct {
	conn     *AgentSideConnection
	onPrompt func(ctx context.Context, p *PromptRequest) (*PromptResponse, error)
	mu       sync.Mutex
	cancels  []SessionID
}

func (a *testAgent) Initialize(ctx context.Context, p *InitializeRequest) (*InitializeResponse, error) {
	return &InitializeResponse{ProtocolVersion: p.ProtocolVersion, Info: Implementation{Name: "a", Version: "1"}, AuthMethods: []AuthMethod{}}, nil
}

func (a *testAgent) NewSession(ctx context.Context, p *NewSessionRequest) (*NewSessionResponse, error) {
	return &NewSessionResponse{SessionID: SessionID("s-" + p.Cwd)}, nil
}

func (a *testAgent) Prompt(ctx context.Context, p *PromptRequest) (*PromptResponse, error) {
	if a.onPrompt != nil {
		return a.onPrompt(ctx, p)
	}
	for _, b := range p.Prompt {
		if t, ok := b.Value.(*ContentBlockText); ok {
			if err := a.conn.UpdateSession(ctx, chunk(p.SessionID, t.Text)); err != nil {
				return nil, err
			}
		}
	}
	return &PromptResponse{MessageID: "m"}, nil
}

func (a *testAgent) CancelSession(ctx context.Context, p *CancelSessionNotification) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cancels = append(a.cancels, p.SessionID)
	return nil
}

func chunk(id SessionID, text string) *UpdateSessionNotification {
	return &UpdateSessionNotification{SessionID: id, Update: SessionUpdate{Value: &SessionUpdateAgentMessageChunk{
		ContentChunk: ContentChunk{Content: ContentBlock{Value: &ContentBlockText{TextContent{Text: text}}}}}}}
}

func textPrompt(id SessionID, texts ...string) *PromptRequest {
	p := &PromptRequest{SessionID: id}
	for _, t := range texts {
		p.Prompt = append(p.Prompt, ContentBlock{Value: &ContentBlockText{TextContent{Text: t}}})
	}
	return p
}

// testClient records the chunks it is sent and answers permission requests.
type testClient struct {
	mu           sync.Mutex
	chunks       []string
	onPermission func(ctx context.Context, p *RequestPermissionRequest) (*RequestPermissionResponse, error)
}

func (c *testClient) UpdateSession(ctx context.Context, n *UpdateSessionNotification) error {
	if u, ok := n.Update.Value.(*SessionUpdateAgentMessageChunk); ok {
		if t, ok := u.Content.Value.(*ContentBlockText); ok {
			c.mu.Lock()
			c.chunks = append(c.chunks, t.Text)
			c.mu.Unlock()
		}
	}
	return nil
}

func (c *testClient) RequestPermission(ctx context.Context, p *RequestPermissionRequest) (*RequestPermissionResponse, error) {
	if c.onPermission != nil {
		return c.onPermission(ctx, p)
	}
	return &RequestPermissionResponse{Outcome: RequestPermissionOutcome{Value: &RequestPermissionOutcomeSelected{
		SelectedPermissionOutcome{OptionID: p.Options[0].OptionID}}}}, nil
}

func (c *testClient) got() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.chunks...)
}

// pair connects a client and an agent over two pipes; closing either
// writer ends the connection.
type pair struct {
	agent        *testAgent
	client       *testClient
	agentConn    *AgentSideConnection
	clientConn   *ClientSideConnection
	toAgent      *io.PipeWriter
	toClient     *io.PipeWriter
	fromAgentEnd *io.PipeReader
}

func newPair(t *testing.T) *pair {
	t.Helper()
	agentIn, toAgent := io.Pipe()
	clientIn, toClient := io.Pipe()
	p := &pair{agent: &testAgent{}, client: &testClient{}, toAgent: toAgent, toClient: toClient}
	p.agentConn = NewAgentSideConnection(p.agent, toClient, agentIn)
	p.agent.conn = p.agentConn
	p.clientConn = NewClientSideConnection(p.client, toAgent, clientIn)
	t.Cleanup(func() {
		toAgent.Close()
		toClient.Close()
		<-p.agentConn.Done()
		<-p.clientConn.Done()
	})
	if _, err := p.clientConn.Initialize(ctxFor(t), &InitializeRequest{ProtocolVersion: 2, Info: Implementation{Name: "c", Version: "1"}}); err != nil {
		t.Fatal(err)
	}
	return p
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestConnEcho(t *testing.T) {
	p := newPair(t)
	ctx := ctxFor(t)
	init, err := p.clientConn.Initialize(ctx, &InitializeRequest{ProtocolVersion: 2, Info: Implementation{Name: "c", Version: "1"}})
	if err != nil || init.ProtocolVersion != 2 {
		t.Fatalf("initialize: %+v, %v", init, err)
	}
	s, err := p.clientConn.NewSession(ctx, &NewSessionRequest{Cwd: "/w", MCPServers: []MCPServer{}})
	if err != nil || s.SessionID != "s-/w" {
		t.Fatalf("session/new: %+v, %v", s, err)
	}
	r, err := p.clientConn.Prompt(ctx, textPrompt(s.SessionID, "a", "b", "c"))
	if err != nil || r.MessageID != "m" {
		t.Fatalf("prompt: %+v, %v", r, err)
	}
	// Notifications are handled before the response that follows them.
	if got := strings.Join(p.client.got(), ","); got != "a,b,c" {
		t.Errorf("chunks %q, want a,b,c", got)
	}
	if err := p.clientConn.CancelSession(ctx, &CancelSessionNotification{SessionID: "x"}); err != nil {
		t.Fatal(err)
	}
	// A request after the notification is served after it was handled.
	if _, err := p.clientConn.Prompt(ctx, textPrompt("x")); err != nil {
		t.Fatal(err)
	}
	p.agent.mu.Lock()
	defer p.agent.mu.Unlock()
	if len(p.agent.cancels) != 1 || p.agent.cancels[0] != "x" {
		t.Errorf("cancels %v", p.agent.cancels)
	}
}

// TestConnNotificationOrder sends many updates from concurrent prompts:
// each prompt's chunks arrive in the order they were sent.
func TestConnNotificationOrder(t *testing.T) {
	p := newPair(t)
	ctx := ctxFor(t)
	var texts []string
	for i := 0; i < 500; i++ {
		texts = append(texts, fmt.Sprint(i))
	}
	if _, err := p.clientConn.Prompt(ctx, textPrompt("s", texts...)); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.client.got(), ","); got != strings.Join(texts, ",") {
		t.Errorf("chunks out of order: %.200s…", got)
	}
}

// TestConnConcurrent makes 100 concurrent calls each way.
func TestConnConcurrent(t *testing.T) {
	p := newPair(t)
	ctx := ctxFor(t)
	p.agent.onPrompt = func(ctx context.Context, r *PromptRequest) (*PromptResponse, error) {
		time.Sleep(time.Millisecond)
		return &PromptResponse{MessageID: "m", Meta: json.RawMessage(`{"id":"` + r.SessionID + `"}`)}, nil
	}
	p.client.onPermission = func(ctx context.Context, r *RequestPermissionRequest) (*RequestPermissionResponse, error) {
		return &RequestPermissionResponse{Outcome: RequestPermissionOutcome{Value: &RequestPermissionOutcomeSelected{
			SelectedPermissionOutcome{OptionID: PermissionOptionID(r.SessionID)}}}}, nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := 0; i < 100; i++ {
		wg.Add(2)
		id := fmt.Sprint("s", i)
		go func() {
			defer wg.Done()
			r, err := p.clientConn.Prompt(ctx, textPrompt(SessionID(id)))
			if err == nil && string(r.Meta) != `{"id":"`+id+`"}` {
				err = fmt.Errorf("prompt %s answered %s", id, r.Meta)
			}
			errs <- err
		}()
		go func() {
			defer wg.Done()
			r, err := p.agentConn.RequestPermission(ctx, &RequestPermissionRequest{SessionID: SessionID(id), Options: []PermissionOption{}})
			if err == nil {
				if sel, ok := r.Outcome.Value.(*RequestPermissionOutcomeSelected); !ok || string(sel.OptionID) != id {
					err = fmt.Errorf("permission %s answered %+v", id, r.Outcome.Value)
				}
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

// TestConnCancelOutbound cancels a call on each side: the caller gets
// ctx.Err() and the handler's context is cancelled.
func TestConnCancelOutbound(t *testing.T) {
	p := newPair(t)
	ctx := ctxFor(t)
	started := make(chan struct{})
	handlerErr := make(chan error, 1)
	p.agent.onPrompt = func(ctx context.Context, r *PromptRequest) (*PromptResponse, error) {
		close(started)
		<-ctx.Done()
		handlerErr <- ctx.Err()
		return nil, ctx.Err()
	}
	callCtx, cancel := context.WithCancel(ctx)
	go func() { <-started; cancel() }()
	if _, err := p.clientConn.Prompt(callCtx, textPrompt("s")); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled prompt: %v", err)
	}
	if err := <-handlerErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("prompt handler: %v", err)
	}

	started2 := make(chan struct{})
	p.client.onPermission = func(ctx context.Context, r *RequestPermissionRequest) (*RequestPermissionResponse, error) {
		close(started2)
		<-ctx.Done()
		handlerErr <- ctx.Err()
		return nil, ctx.Err()
	}
	callCtx, cancel = context.WithCancel(ctx)
	go func() { <-started2; cancel() }()
	if _, err := p.agentConn.RequestPermission(callCtx, &RequestPermissionRequest{SessionID: "s", Options: []PermissionOption{}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled permission request: %v", err)
	}
	if err := <-handlerErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("permission handler: %v", err)
	}
	// The connection serves on.
	p.agent.onPrompt = nil
	if _, err := p.clientConn.Prompt(ctx, textPrompt("s", "after")); err != nil {
		t.Fatal(err)
	}
}

// TestConnPeerCloses ends the agent's output while a call waits for it.
func TestConnPeerCloses(t *testing.T) {
	p := newPair(t)
	ctx := ctxFor(t)
	started := make(chan struct{})
	p.agent.onPrompt = func(ctx context.Context, r *PromptRequest) (*PromptResponse, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}
	go func() { <-started; p.toClient.Close() }()
	_, err := p.clientConn.Prompt(ctx, textPrompt("s"))
	if !errors.Is(err, ErrConnectionClosed) || !strings.Contains(err.Error(), "peer closed") {
		t.Fatalf("call pending when the peer closed: %v", err)
	}
	<-p.clientConn.Done()
	if err := p.clientConn.Err(); !errors.Is(err, ErrConnectionClosed) {
		t.Errorf("Err after close: %v", err)
	}
	if _, err := p.clientConn.Initialize(ctx, &InitializeRequest{}); !errors.Is(err, ErrConnectionClosed) {
		t.Errorf("call after close: %v", err)
	}
}

// TestConnLongLine sends a prompt of 10 MB on one line and gets it back.
func TestConnLongLine(t *testing.T) {
	p := newPair(t)
	big := strings.Repeat("0123456789", 1<<20)
	if _, err := p.clientConn.Prompt(ctxFor(t), textPrompt("s", big)); err != nil {
		t.Fatal(err)
	}
	if got := p.client.got(); len(got) != 1 || got[0] != big {
		t.Errorf("the 10 MB chunk did not come back whole")
	}
}

// rawPeer speaks lines to a connection directly.
type rawPeer struct {
	t     *testing.T
	w     *io.PipeWriter
	lines *bufio.Scanner
}

func newRawAgentPeer(t *testing.T, agent Agent) (*rawPeer, *AgentSideConnection) {
	in, w := io.Pipe()
	out, toPeer := io.Pipe()
	conn := NewAgentSideConnection(agent, toPeer, in)
	t.Cleanup(func() { w.Close(); out.Close(); <-conn.Done() })
	s := bufio.NewScanner(out)
	s.Buffer(nil, 1<<20)
	r := &rawPeer{t: t, w: w, lines: s}
	r.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"}}}`)
	r.recv()
	return r, conn
}

func (r *rawPeer) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.w, line+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

// recv reads the next line and returns it compacted.
func (r *rawPeer) recv() string {
	r.t.Helper()
	if !r.lines.Scan() {
		r.t.Fatalf("no line: %v", r.lines.Err())
	}
	return r.lines.Text()
}

// TestConnWire checks each answer byte for byte, in order: the connection
// answers requests as they come and serves on after every error.
func TestConnWire(t *testing.T) {
	agent := &testAgent{}
	agent.onPrompt = func(ctx context.Context, p *PromptRequest) (*PromptResponse, error) {
		switch p.SessionID {
		case "panic":
			panic("boom")
		case "fail":
			return nil, errors.New("it failed")
		case "rpc":
			return nil, fmt.Errorf("wrapped: %w", NewResourceNotFoundError("file:///x"))
		}
		return &PromptResponse{MessageID: "m"}, nil
	}
	peer, conn := newRawAgentPeer(t, agent)
	agent.conn = conn
	for _, c := range []struct{ in, want string }{
		{`not json`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
		{`{"jsonrpc":"2.0","id":1,"method":"session/prompt"`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
		{`[1,2]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request","data":{"details":"the message is not a JSON object"}}}`},
		{`{"jsonrpc":"2.0","id":7,"method":"no/such"}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found","data":{"method":"no/such"}}}`},
		{`{"jsonrpc":"2.0","method":"no/such"}`, ``},
		{`{"jsonrpc":"2.0","id":"abc","method":"_ext/x","params":{}}`, `{"jsonrpc":"2.0","id":"abc","error":{"code":-32601,"message":"Method not found","data":{"method":"_ext/x"}}}`},
		{`{"jsonrpc":"2.0","id":1.50,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"}}}`, `{"jsonrpc":"2.0","id":1.50,"error":{"code":-32600,"message":"Invalid request","data":"ACP v2 initialize must not be repeated after other requests"}}`},
		{`{"jsonrpc":"2.0","id":"9","method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":7}]}}`,
			`{"jsonrpc":"2.0","id":"9","error":{"code":-32602,"message":"Invalid params","data":{"details":"json: cannot unmarshal number into Go struct field .prompt.text of type string","path":"prompt.text"}}}`},
		{`{"jsonrpc":"2.0","id":10,"method":"session/prompt"}`, `{"jsonrpc":"2.0","id":10,"error":{"code":-32602,"message":"Invalid params","data":{"details":"params are missing"}}}`},
		{`{"jsonrpc":"2.0","id":11,"method":"session/prompt","params":{"sessionId":"panic","prompt":[]}}`, `{"jsonrpc":"2.0","id":11,"error":{"code":-32603,"message":"Internal error","data":{"details":"panic: boom"}}}`},
		{`{"jsonrpc":"2.0","id":12,"method":"session/prompt","params":{"sessionId":"fail","prompt":[]}}`, `{"jsonrpc":"2.0","id":12,"error":{"code":-32603,"message":"Internal error","data":{"details":"it failed"}}}`},
		{`{"jsonrpc":"2.0","id":13,"method":"session/prompt","params":{"sessionId":"rpc","prompt":[]}}`, `{"jsonrpc":"2.0","id":13,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"file:///x"}}}`},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, ``},
		{`{"jsonrpc":"2.0","id":99,"result":{}}`, ``},
		{``, ``},
		{`{"id":14,"method":"initialize","params":{"protocolVersion":2}}`, `{"jsonrpc":"2.0","id":14,"error":{"code":-32600,"message":"Invalid request","data":{"details":"the message lacks \"jsonrpc\": \"2.0\""}}}`},
		{`{"jsonrpc":"2.0","id":-3,"method":"session/prompt","params":{"sessionId":"ok","prompt":[]}}`, `{"jsonrpc":"2.0","id":-3,"result":{"messageId":"m"}}`},
	} {
		peer.send(c.in)
		if c.want == "" {
			continue // nothing comes back: the next answer is the next case's
		}
		if got := peer.recv(); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// extAgent handles extension methods.
type extAgent struct{ testAgent }

func (a *extAgent) ExtMethod(ctx context.Context, method string, params json.RawMessage) (any, error) {
	return json.RawMessage(`{"method":"` + method + `","params":` + string(params) + `}`), nil
}

func (a *extAgent) ExtNotification(ctx context.Context, method string, params json.RawMessage) error {
	return nil
}

func TestConnExtensions(t *testing.T) {
	peer, conn := newRawAgentPeer(t, &extAgent{})
	peer.send(`{"jsonrpc":"2.0","method":"_x/note","params":[1]}`)
	peer.send(`{"jsonrpc":"2.0","id":1,"method":"_x/get","params":{"a":9007199254740993}}`)
	if got, want := peer.recv(), `{"jsonrpc":"2.0","id":1,"result":{"method":"_x/get","params":{"a":9007199254740993}}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// And outbound, raw.
	ctx := ctxFor(t)
	done := make(chan json.RawMessage, 1)
	go func() {
		r, err := conn.ExtMethod(ctx, "_x/ask", map[string]int{"n": 1})
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	if got, want := peer.recv(), `{"jsonrpc":"2.0","id":1,"method":"_x/ask","params":{"n":1}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	peer.send(`{"jsonrpc":"2.0","id":1,"result":{"ok":true}}`)
	if r := <-done; string(r) != `{"ok":true}` {
		t.Errorf("ext result %s", r)
	}
	go func() {
		if err := conn.ExtNotification(ctx, "_x/tell", nil); err != nil {
			t.Error(err)
		}
	}()
	if got, want := peer.recv(), `{"jsonrpc":"2.0","method":"_x/tell"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// An error response is an *Error.
	done = make(chan json.RawMessage)
	go func() {
		_, err := conn.RequestPermission(ctx, &RequestPermissionRequest{SessionID: "s", Options: []PermissionOption{}})
		var rpcErr *Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != ErrorCodeInvalidParams {
			t.Errorf("error response: %v", err)
		}
		close(done)
	}()
	if got := peer.recv(); !strings.Contains(got, `"id":2,"method":"session/request_permission"`) {
		t.Errorf("request %s", got)
	}
	peer.send(`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params"}}`)
	<-done
}

// TestConnCancelInbound sends $/cancel_request for a request being served:
// its handler's context ends and the answer is "request cancelled".
func TestConnCancelInbound(t *testing.T) {
	agent := &testAgent{}
	agent.onPrompt = func(ctx context.Context, p *PromptRequest) (*PromptResponse, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	peer, _ := newRawAgentPeer(t, agent)
	peer.send(`{"jsonrpc":"2.0","id":"p1","method":"session/prompt","params":{"sessionId":"s","prompt":[]}}`)
	peer.send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"p1"}}`)
	if got, want := peer.recv(), `{"jsonrpc":"2.0","id":"p1","error":{"code":-32800,"message":"Request cancelled"}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// FuzzParseLine checks that no line makes the envelope reader panic, and
// that what it accepts is a message of one kind.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":2}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{}}`,
		`{"jsonrpc":"2.0","id":"x","result":null}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":{},"method":"x"}`,
		`[]`, ``, `   `, `{`, `"\u0000"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := parseLine(line)
		if err != nil {
			if err.Code != ErrorCodeParseError && err.Code != ErrorCodeInvalidRequest {
				t.Fatalf("error code %d", err.Code)
			}
			return
		}
		if m.empty {
			return
		}
		if m.method == "" && m.id == nil {
			t.Fatalf("accepted a message with neither method nor id: %q", line)
		}
		if m.id != nil && !json.Valid(m.id) {
			t.Fatalf("id %q is not JSON", m.id)
		}
		if m.params != nil && !json.Valid(m.params) {
			t.Fatalf("params %q are not JSON", m.params)
		}
	})
}
