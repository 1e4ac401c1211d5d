package conntest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// Pair is a client and an agent of one package connected over two pipes,
// the agent echoing each text block of a prompt as a chunk and the client
// recording the chunks and choosing the first option of a permission
// request; closing either writer ends the connection.
type Pair struct {
	pkg                    *Package
	Agent, Client          *Handlers
	AgentConn, ClientConn  Conn
	agentCalls, clientCall map[string]Call
	ToAgent, ToClient      *io.PipeWriter

	mu      sync.Mutex
	chunks  []string
	cancels []string
}

type promptParams struct {
	SessionID string `json:"sessionId"`
	Prompt    []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"prompt"`
}

// NewPair connects a test client and a test agent of pkg, and initializes.
func NewPair(t *testing.T, pkg *Package) *Pair {
	t.Helper()
	agentIn, toAgent := io.Pipe()
	clientIn, toClient := io.Pipe()
	p := &Pair{pkg: pkg, Agent: &Handlers{}, Client: &Handlers{}, ToAgent: toAgent, ToClient: toClient}
	agentHandlers(pkg, p.Agent, func(sessionID string) { p.mu.Lock(); p.cancels = append(p.cancels, sessionID); p.mu.Unlock() })
	p.Agent.Set("session/prompt", func(ctx context.Context, raw json.RawMessage) (any, error) { return p.Echo(ctx, raw) })
	p.Client.Set("session/update", func(ctx context.Context, raw json.RawMessage) (any, error) {
		var n struct {
			Update struct {
				SessionUpdate string `json:"sessionUpdate"`
				Content       struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"update"`
		}
		if err := json.Unmarshal(raw, &n); err != nil {
			return nil, err
		}
		if n.Update.SessionUpdate == "agent_message_chunk" {
			p.mu.Lock()
			p.chunks = append(p.chunks, n.Update.Content.Text)
			p.mu.Unlock()
		}
		return nil, nil
	})
	p.Client.Set("session/request_permission", func(ctx context.Context, raw json.RawMessage) (any, error) {
		var r struct {
			Options []struct {
				OptionID string `json:"optionId"`
			} `json:"options"`
		}
		if err := json.Unmarshal(raw, &r); err != nil || len(r.Options) == 0 {
			return nil, fmt.Errorf("no option in %s", raw)
		}
		return Selected(r.Options[0].OptionID), nil
	})
	p.AgentConn, p.agentCalls = pkg.Agent(p.Agent, toClient, agentIn, Options{})
	p.ClientConn, p.clientCall = pkg.Client(p.Client, toAgent, clientIn, Options{})
	t.Cleanup(func() {
		toAgent.Close()
		toClient.Close()
		<-p.AgentConn.Done()
		<-p.ClientConn.Done()
	})
	if _, err := p.ClientCall(Ctx(t), "initialize", pkg.InitializeParams); err != nil {
		t.Fatal(err)
	}
	return p
}

// agentHandlers sets what the test agent does but for prompts: initialize
// answers pkg.InitializeResult, session/new the session "s-<cwd>", and
// session/cancel tells cancelled the session.
func agentHandlers(pkg *Package, hs *Handlers, cancelled func(sessionID string)) {
	hs.Set("initialize", func(context.Context, json.RawMessage) (any, error) {
		return json.RawMessage(pkg.InitializeResult), nil
	})
	hs.Set("session/new", func(ctx context.Context, raw json.RawMessage) (any, error) {
		var p struct {
			Cwd string `json:"cwd"`
		}
		err := json.Unmarshal(raw, &p)
		return map[string]string{"sessionId": "s-" + p.Cwd}, err
	})
	hs.Set("session/cancel", func(ctx context.Context, raw json.RawMessage) (any, error) {
		var p struct {
			SessionID string `json:"sessionId"`
		}
		err := json.Unmarshal(raw, &p)
		cancelled(p.SessionID)
		return nil, err
	})
}

// Echo is the test agent's prompt: each text block back as a chunk, then
// pkg.PromptResult.
func (p *Pair) Echo(ctx context.Context, raw json.RawMessage) (any, error) {
	var r promptParams
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	for _, b := range r.Prompt {
		if _, err := p.AgentCall(ctx, "session/update", Chunk(r.SessionID, b.Text)); err != nil {
			return nil, err
		}
	}
	return json.RawMessage(p.pkg.PromptResult), nil
}

// ClientCall makes the client's typed call of method with params as JSON.
func (p *Pair) ClientCall(ctx context.Context, method, params string) (json.RawMessage, error) {
	return p.clientCall[method](ctx, params)
}

// AgentCall makes the agent's typed call of method with params as JSON.
func (p *Pair) AgentCall(ctx context.Context, method, params string) (json.RawMessage, error) {
	return p.agentCalls[method](ctx, params)
}

// Chunks returns the texts of the chunks the client received.
func (p *Pair) Chunks() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.chunks...)
}

// Cancels returns the sessions the agent was told to cancel.
func (p *Pair) Cancels() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.cancels...)
}

// Chunk returns the params of a session/update with an agent message chunk
// (with the message id v2 requires, which v1 ignores).
func Chunk(sessionID, text string) string {
	b, _ := json.Marshal(map[string]any{"sessionId": sessionID, "update": map[string]any{
		"sessionUpdate": "agent_message_chunk", "messageId": "m", "content": map[string]string{"type": "text", "text": text}}})
	return string(b)
}

// TextPrompt returns the params of a session/prompt with one text block a
// text.
func TextPrompt(sessionID string, texts ...string) string {
	blocks := []map[string]string{}
	for _, t := range texts {
		blocks = append(blocks, map[string]string{"type": "text", "text": t})
	}
	b, _ := json.Marshal(map[string]any{"sessionId": sessionID, "prompt": blocks})
	return string(b)
}

// Selected returns the answer to a permission request that selects option.
func Selected(option string) json.RawMessage {
	return json.RawMessage(`{"outcome":{"outcome":"selected","optionId":` + quote(option) + `}}`)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Ctx returns a context that ends with the test, or after 30 s.
func Ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// RawPeer speaks lines to an agent connection directly.
type RawPeer struct {
	t     *testing.T
	w     *io.PipeWriter
	lines *bufio.Scanner
	Conn  Conn
	calls map[string]Call

	mu      sync.Mutex
	cancels []string
}

// Cancels returns the sessions the agent was told to cancel.
func (r *RawPeer) Cancels() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.cancels...)
}

// NewRawAgentPeer serves the test agent of pkg (without prompts: set a
// handler for session/prompt) on a connection that the RawPeer speaks to.
// Unless uninitialized, it initializes first.
func NewRawAgentPeer(t *testing.T, pkg *Package, hs *Handlers, uninitialized bool) *RawPeer {
	return NewRawAgentPeerWith(t, pkg, hs, uninitialized, Options{})
}

// NewRawAgentPeerWith is NewRawAgentPeer with the options o.
func NewRawAgentPeerWith(t *testing.T, pkg *Package, hs *Handlers, uninitialized bool, o Options) *RawPeer {
	r := &RawPeer{t: t}
	agentHandlers(pkg, hs, func(sessionID string) { r.mu.Lock(); r.cancels = append(r.cancels, sessionID); r.mu.Unlock() })
	in, w := io.Pipe()
	out, toPeer := io.Pipe()
	r.Conn, r.calls = pkg.Agent(hs, toPeer, in, o)
	t.Cleanup(func() { w.Close(); out.Close(); <-r.Conn.Done() })
	r.w, r.lines = w, bufio.NewScanner(out)
	r.lines.Buffer(nil, 1<<20)
	if !uninitialized {
		r.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":` + pkg.InitializeParams + `}`)
		if got := r.Recv(); !strings.Contains(got, `"result"`) {
			t.Fatalf("initialize: %s", got)
		}
	}
	return r
}

// Send writes line and a newline.
func (r *RawPeer) Send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.w, line+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

// Recv reads the next line.
func (r *RawPeer) Recv() string {
	r.t.Helper()
	if !r.lines.Scan() {
		r.t.Fatalf("no line: %v", r.lines.Err())
	}
	return r.lines.Text()
}

// Call makes the agent's typed call of method with params as JSON.
func (r *RawPeer) Call(ctx context.Context, method, params string) (json.RawMessage, error) {
	return r.calls[method](ctx, params)
}

// Exchange sends each case's line and expects its answer, byte for byte;
// a case without answer expects none before the next case's.
func (r *RawPeer) Exchange(cases []Line) {
	r.t.Helper()
	for _, c := range cases {
		in, want := c[0], c[1]
		r.Send(in)
		if want == "" {
			continue
		}
		if got := r.Recv(); got != want {
			r.t.Errorf("%s\n got %s\nwant %s", in, got, want)
		}
	}
}

// Line is a line sent and the line it is answered with ("" for none).
type Line [2]string

// Receive returns the next value of ch, failing the test when none comes
// within 10 seconds; what names the values in the message.
func Receive[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s", what)
	}
	var zero T
	return zero
}

// SetLimits copies the limits of o into limits, a pointer to the Limits of
// a generated package, field by field by name.
func SetLimits(o Options, limits any) {
	dst, src := reflect.ValueOf(limits).Elem(), reflect.ValueOf(o)
	for i := 0; i < dst.NumField(); i++ {
		if f := src.FieldByName(dst.Type().Field(i).Name); f.IsValid() {
			dst.Field(i).Set(f.Convert(dst.Field(i).Type()))
		}
	}
}

// HasCode reports whether the first JSON-RPC error of a generated package
// (a *Error) that err is or wraps, as errors.As finds it, has the code.
func HasCode(err error, code int) bool {
	found, ok := rpcCode(err)
	return ok && found == int64(code)
}

// rpcCode returns the code of the first *Error in the tree of err.
func rpcCode(err error) (int64, bool) {
	if err == nil {
		return 0, false
	}
	if v := reflect.ValueOf(err); v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct && v.Elem().Type().Name() == "Error" {
		if c := v.Elem().FieldByName("Code"); c.IsValid() && c.CanInt() {
			return c.Int(), true
		}
	}
	switch e := err.(type) {
	case interface{ Unwrap() error }:
		return rpcCode(e.Unwrap())
	case interface{ Unwrap() []error }:
		for _, inner := range e.Unwrap() {
			if code, ok := rpcCode(inner); ok {
				return code, true
			}
		}
	}
	return 0, false
}

// Link joins the connection newAgent makes and the one newClient makes,
// each from the writer and the reader it is given, over two pipes. hangUp
// closes the pipes and waits for both connections to end; the test's
// cleanup calls it too.
func Link[A, C interface{ Done() <-chan struct{} }](t testing.TB, newAgent func(io.Writer, io.Reader) A, newClient func(io.Writer, io.Reader) C) (agent A, client C, hangUp func()) {
	t.Helper()
	toAgent, fromClient := io.Pipe()
	toClient, fromAgent := io.Pipe()
	agent = newAgent(fromAgent, toAgent)
	client = newClient(fromClient, toClient)
	hangUp = func() {
		fromClient.Close()
		fromAgent.Close()
		<-client.Done()
		<-agent.Done()
	}
	t.Cleanup(hangUp)
	return agent, client, hangUp
}
