package acpv1test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// mwAgent answers the basic methods and, during a prompt, reads a file of
// the client and sends it an update.
type mwAgent struct {
	conn     *acpv1.AgentSideConnection
	prompted bool
}

func (a *mwAgent) Initialize(context.Context, *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return &acpv1.InitializeResponse{ProtocolVersion: 1}, nil
}
func (a *mwAgent) NewSession(context.Context, *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return &acpv1.NewSessionResponse{SessionID: "s1"}, nil
}
func (a *mwAgent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	a.prompted = true
	if _, err := a.conn.ReadTextFile(ctx, &acpv1.ReadTextFileRequest{SessionID: p.SessionID, Path: "/f"}); err != nil {
		return nil, err
	}
	err := a.conn.SessionUpdate(ctx, &acpv1.SessionNotification{SessionID: p.SessionID,
		Update: acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText("secret answer"))})
	return &acpv1.PromptResponse{StopReason: acpv1.StopReasonEndTurn}, err
}
func (a *mwAgent) Cancel(context.Context, *acpv1.CancelNotification) error { return nil }

type mwClient struct {
	mu      sync.Mutex
	updates int
}

func (c *mwClient) RequestPermission(context.Context, *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return nil, errors.New("not asked")
}
func (c *mwClient) SessionUpdate(context.Context, *acpv1.SessionNotification) error {
	c.mu.Lock()
	c.updates++
	c.mu.Unlock()
	return nil
}
func (c *mwClient) ReadTextFile(context.Context, *acpv1.ReadTextFileRequest) (*acpv1.ReadTextFileResponse, error) {
	return &acpv1.ReadTextFileResponse{Content: "file text"}, nil
}

// mwPair joins an agent and a client with the options of each side.
func mwPair(t *testing.T, agentOpts, clientOpts []acpv1.ConnOption) (*mwAgent, *acpv1.ClientSideConnection, *mwClient) {
	t.Helper()
	ar, cw := io.Pipe()
	cr, aw := io.Pipe()
	agent := &mwAgent{}
	ac := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent { agent.conn = c; return agent }, aw, ar, agentOpts...)
	client := &mwClient{}
	cc := acpv1.NewClientSideConnection(client, cw, cr, clientOpts...)
	t.Cleanup(func() {
		cc.Close()
		ac.Close()
	})
	return agent, cc, client
}

// recorder is a middleware that records what it sees, as name:what.
type recorder struct {
	mu    sync.Mutex
	lines []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	r.lines = append(r.lines, s)
	r.mu.Unlock()
}

func (r *recorder) mw(name string) acpv1.Middleware {
	return func(next acpv1.Handler) acpv1.Handler {
		return func(ctx context.Context, call acpv1.Call) (any, error) {
			dir := "out"
			if call.Inbound() {
				dir = "in"
			}
			r.add(name + " " + dir + " " + call.Method())
			result, err := next(ctx, call)
			r.add(name + " done " + call.Method())
			return result, err
		}
	}
}

func (r *recorder) all() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.lines, "\n")
}

func TestMiddlewareOrderAndDirections(t *testing.T) {
	var agentRec, clientRec recorder
	_, cc, client := mwPair(t, []acpv1.ConnOption{acpv1.WithMiddleware(agentRec.mw("a"), agentRec.mw("b"))},
		[]acpv1.ConnOption{acpv1.WithMiddleware(clientRec.mw("c"))})
	ctx := context.Background()
	if _, err := cc.Initialize(ctx, &acpv1.InitializeRequest{ProtocolVersion: 1, ClientCapabilities: &acpv1.ClientCapabilities{Fs: &acpv1.FileSystemCapabilities{ReadTextFile: acpv1.Ptr(true)}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.Prompt(ctx, &acpv1.PromptRequest{SessionID: "s1", Prompt: []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")}}); err != nil {
		t.Fatal(err)
	}
	cc.Close()
	want := strings.Join([]string{
		"a in initialize", "b in initialize", "b done initialize", "a done initialize",
		"a in session/prompt", "b in session/prompt",
		"a out fs/read_text_file", "b out fs/read_text_file", "b done fs/read_text_file", "a done fs/read_text_file",
		"a out session/update", "b out session/update", "b done session/update", "a done session/update",
		"b done session/prompt", "a done session/prompt",
	}, "\n")
	if got := agentRec.all(); got != want {
		t.Errorf("the agent's middleware saw\n%s\nwant\n%s", got, want)
	}
	client.mu.Lock()
	defer client.mu.Unlock()
	if client.updates != 1 {
		t.Errorf("the client handled %d updates, want 1", client.updates)
	}
	for _, line := range []string{"c out session/prompt", "c in fs/read_text_file", "c in session/update", "c done session/prompt"} {
		if !strings.Contains(clientRec.all(), line) {
			t.Errorf("the client's middleware did not see %q:\n%s", line, clientRec.all())
		}
	}
}

func TestMiddlewareRefuses(t *testing.T) {
	deny := func(next acpv1.Handler) acpv1.Handler {
		return func(ctx context.Context, call acpv1.Call) (any, error) {
			if call.Method() == acpv1.MethodPrompt {
				return nil, acpv1.NewError(-32001, "not allowed")
			}
			return next(ctx, call)
		}
	}
	agent, cc, _ := mwPair(t, []acpv1.ConnOption{acpv1.WithMiddleware(deny)}, nil)
	ctx := context.Background()
	if _, err := cc.Initialize(ctx, &acpv1.InitializeRequest{ProtocolVersion: 1}); err != nil {
		t.Fatal(err)
	}
	_, err := cc.Prompt(ctx, &acpv1.PromptRequest{SessionID: "s1", Prompt: []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")}})
	var rpcErr *acpv1.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32001 || rpcErr.Message != "not allowed" {
		t.Fatalf("the refused prompt returned %v, want the middleware's error -32001", err)
	}
	if code, msg := rpcErr.RPCError(); code != -32001 || msg != "not allowed" {
		t.Errorf("RPCError() = %d, %q", code, msg)
	}
	cc.Close()
	if agent.prompted {
		t.Error("the handler ran for a refused call")
	}
	// An outbound call refused never reaches the peer.
	refuseOut := func(acpv1.Handler) acpv1.Handler {
		return func(context.Context, acpv1.Call) (any, error) { return nil, acpv1.NewError(-32002, "no") }
	}
	_, cc2, _ := mwPair(t, nil, []acpv1.ConnOption{acpv1.WithMiddleware(refuseOut)})
	if _, err := cc2.Initialize(ctx, &acpv1.InitializeRequest{ProtocolVersion: 1}); !errors.As(err, &rpcErr) || rpcErr.Code != -32002 {
		t.Errorf("the refused outbound call returned %v", err)
	}
}

func TestMiddlewareMeta(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]string{}
	inject := func(next acpv1.Handler) acpv1.Handler {
		return func(ctx context.Context, call acpv1.Call) (any, error) {
			if call.Meta("traceparent") == nil {
				call.SetMeta("traceparent", json.RawMessage(`"00-abc-def-01"`))
			}
			return next(ctx, call)
		}
	}
	read := func(next acpv1.Handler) acpv1.Handler {
		return func(ctx context.Context, call acpv1.Call) (any, error) {
			mu.Lock()
			seen[call.Method()] = string(call.Meta("traceparent")) + " " + string(call.Meta("keep")) + " " + call.ID()
			mu.Unlock()
			return next(ctx, call)
		}
	}
	_, cc, _ := mwPair(t, []acpv1.ConnOption{acpv1.WithMiddleware(read)}, []acpv1.ConnOption{acpv1.WithMiddleware(inject)})
	ctx := context.Background()
	if _, err := cc.Initialize(ctx, &acpv1.InitializeRequest{ProtocolVersion: 1}); err != nil {
		t.Fatal(err)
	}
	params := &acpv1.NewSessionRequest{Cwd: "/", MCPServers: []acpv1.MCPServer{}, Meta: json.RawMessage(`{"keep":1}`)}
	if _, err := cc.NewSession(ctx, params); err != nil {
		t.Fatal(err)
	}
	if string(params.Meta) != `{"keep":1}` {
		t.Errorf("the caller's params were changed: _meta %s", params.Meta)
	}
	// The caller's own traceparent is kept.
	own := &acpv1.NewSessionRequest{Cwd: "/", MCPServers: []acpv1.MCPServer{}, Meta: json.RawMessage(`{"traceparent":"mine"}`)}
	if _, err := cc.NewSession(ctx, own); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.ExtMethod(ctx, "_x/ping", map[string]int{"a": 1}); err == nil {
		t.Error("the extension method had an answer")
	}
	cc.Close()
	mu.Lock()
	defer mu.Unlock()
	if got, want := seen[acpv1.MethodInitialize], `"00-abc-def-01"  1`; got != want {
		t.Errorf("initialize: the agent saw %q, want %q", got, want)
	}
	if got, want := seen[acpv1.MethodNewSession], `"mine"  3`; got != want {
		t.Errorf("session/new: the agent saw %q, want %q", got, want)
	}
	if got, want := seen["_x/ping"], `"00-abc-def-01"  4`; got != want {
		t.Errorf("_x/ping: the agent saw %q, want %q", got, want)
	}
}

func TestWireLog(t *testing.T) {
	var full, env bytes.Buffer
	var short bytes.Buffer
	_, cc, _ := mwPair(t, []acpv1.ConnOption{acpv1.WithWireLog(&full, acpv1.WireLogOptions{}), acpv1.WithWireLog(&full, acpv1.WireLogOptions{})},
		[]acpv1.ConnOption{acpv1.WithWireLog(&env, acpv1.WireLogOptions{Envelopes: true}), acpv1.WithWireLog(&env, acpv1.WireLogOptions{Envelopes: true})})
	_, cc2, _ := mwPair(t, nil, []acpv1.ConnOption{acpv1.WithWireLog(&short, acpv1.WireLogOptions{MaxLineBytes: 40})})
	ctx := context.Background()
	for _, c := range []*acpv1.ClientSideConnection{cc, cc2} {
		if _, err := c.Initialize(ctx, &acpv1.InitializeRequest{ProtocolVersion: 1, ClientCapabilities: &acpv1.ClientCapabilities{Fs: &acpv1.FileSystemCapabilities{ReadTextFile: acpv1.Ptr(true)}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Prompt(ctx, &acpv1.PromptRequest{SessionID: "s1", Prompt: []acpv1.ContentBlock{acpv1.NewContentBlockText("secret prompt")}}); err != nil {
			t.Fatal(err)
		}
		c.Close()
	}
	type record struct {
		Time      string          `json:"time"`
		Dir       string          `json:"dir"`
		Bytes     int             `json:"bytes"`
		Msg       json.RawMessage `json:"msg"`
		Text      string          `json:"text"`
		Envelope  bool            `json:"envelope"`
		Truncated bool            `json:"truncated"`
	}
	parse := func(name string, b *bytes.Buffer) []record {
		var rs []record
		for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
			var r record
			if err := json.Unmarshal([]byte(line), &r); err != nil || r.Time == "" || r.Bytes == 0 {
				t.Fatalf("%s: a record that does not parse: %s (%v)", name, line, err)
			}
			rs = append(rs, r)
		}
		return rs
	}
	// The agent's log: every line, in and out, whole.
	rs := parse("full", &full)
	var in, out int
	for _, r := range rs {
		switch r.Dir {
		case "in":
			in++
		case "out":
			out++
		}
	}
	// In: initialize, prompt, the file's result; out: their answers, the
	// read and the update.
	if in != 3 || out != 4 || !strings.Contains(full.String(), "secret prompt") || !strings.Contains(full.String(), "file text") {
		t.Errorf("the full log has %d in and %d out:\n%s", in, out, full.String())
	}
	// The client's: the envelopes alone.
	rs = parse("envelopes", &env)
	if len(rs) != 7 || strings.Contains(env.String(), "secret") || strings.Contains(env.String(), "file text") {
		t.Errorf("the envelope log has %d records or contents:\n%s", len(rs), env.String())
	}
	for _, r := range rs {
		if !r.Envelope || !bytes.Contains(r.Msg, []byte(`"jsonrpc":"2.0"`)) {
			t.Errorf("a record without its envelope: %+v", r)
		}
	}
	if !strings.Contains(env.String(), `"params":{"sessionId":"s1"}`) {
		t.Errorf("the envelope log lost the session id:\n%s", env.String())
	}
	// The bounded log: long lines cut, as text.
	truncated := 0
	for _, r := range parse("short", &short) {
		if r.Truncated {
			truncated++
			if len(r.Text) > 40 || r.Msg != nil {
				t.Errorf("a truncated record holds %d bytes: %+v", len(r.Text), r)
			}
		}
	}
	if truncated == 0 {
		t.Errorf("no record was truncated:\n%s", short.String())
	}
}

func TestWireLogFromEnv(t *testing.T) {
	path := t.TempDir() + "/wire.jsonl"
	t.Setenv(acpv1.EnvWireLog, path)
	t.Setenv(acpv1.EnvWireLogEnvelopes, "1")
	_, cc, _ := mwPair(t, nil, []acpv1.ConnOption{acpv1.WireLogFromEnv()})
	if _, err := cc.Initialize(context.Background(), &acpv1.InitializeRequest{ProtocolVersion: 1}); err != nil {
		t.Fatal(err)
	}
	cc.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 2 || !strings.Contains(string(data), `"envelope":true`) {
		t.Errorf("the file holds %d records:\n%s", n, data)
	}
	t.Setenv(acpv1.EnvWireLog, t.TempDir()+"/missing/dir/wire.jsonl")
	var logged bytes.Buffer
	_, cc, _ = mwPair(t, nil, []acpv1.ConnOption{acpv1.WireLogFromEnv(), acpv1.WithLogger(slog.New(slog.NewTextHandler(&logged, nil)))})
	if _, err := cc.Initialize(context.Background(), &acpv1.InitializeRequest{ProtocolVersion: 1}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logged.String(), "wire log") {
		t.Errorf("a wire log that cannot be opened was not reported: %q", logged.String())
	}
}

func TestMiddlewarePanics(t *testing.T) {
	panics := func(next acpv1.Handler) acpv1.Handler {
		return func(ctx context.Context, call acpv1.Call) (any, error) {
			if call.Method() == acpv1.MethodPrompt {
				panic("middleware bug")
			}
			return next(ctx, call)
		}
	}
	_, cc, _ := mwPair(t, []acpv1.ConnOption{acpv1.WithMiddleware(panics), acpv1.WithLogger(nil)}, nil)
	ctx := context.Background()
	if _, err := cc.Initialize(ctx, &acpv1.InitializeRequest{ProtocolVersion: 1}); err != nil {
		t.Fatal(err)
	}
	_, err := cc.Prompt(ctx, &acpv1.PromptRequest{SessionID: "s1", Prompt: []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")}})
	var rpcErr *acpv1.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32603 || strings.Contains(err.Error(), "middleware bug") {
		t.Fatalf("a panicking middleware's call returned %v, want -32603 without the panic's text", err)
	}
	// The connection serves on.
	if _, err := cc.NewSession(ctx, &acpv1.NewSessionRequest{Cwd: "/", MCPServers: []acpv1.MCPServer{}}); err != nil {
		t.Fatal(err)
	}
}
