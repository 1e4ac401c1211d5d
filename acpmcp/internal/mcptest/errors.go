//go:build unstable_mcp_over_acp || unstable

package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Blocking registers a handler that reports each request it starts on
// started and waits for its context to end (or release to close); ended
// receives each request's context error.
func Blocking(t *testing.T, provider *acpmcp.Provider, max int) (reg *acpmcp.Registration, started chan string, ended chan error, release chan struct{}) {
	t.Helper()
	started, ended, release = make(chan string, 16), make(chan error, 16), make(chan struct{})
	h := func(ctx context.Context, req *acpmcp.Request) (acpmcp.Outcome, error) {
		started <- req.RequestID
		select {
		case <-ctx.Done():
			ended <- ctx.Err()
			return acpmcp.Outcome{}, ctx.Err()
		case <-release:
			ended <- nil
			return acpmcp.Outcome{Result: json.RawMessage(`{}`)}, nil
		}
	}
	reg, err := provider.Register("slow", h, &acpmcp.ServerOptions{MaxActiveRequests: max})
	if err != nil {
		t.Fatal(err)
	}
	return reg, started, ended, release
}

// wantCode fails unless err is an outer binding error with code.
func wantCode(t *testing.T, err error, code int64) *acpmcp.Error {
	t.Helper()
	var e *acpmcp.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("error = %v, want an outer error %d", err, code)
	}
	return e
}

// Timeout returns a context that ends after 10 s or with the test.
func Timeout(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func testUnknownServer(t *testing.T, p *Pair) {
	_, err := p.Caller.Request(Timeout(t), "missing", "tools/list", nil, nil)
	e := wantCode(t, err, acpmcp.CodeServerUnavailable)
	if !strings.Contains(string(e.Data), `"serverId":"missing"`) {
		t.Errorf("data = %s, want the server ID", e.Data)
	}
	// The MCP client sees the same code as a JSON-RPC error.
	client := mcp.NewClient(&mcp.Implementation{Name: "a", Version: "1"}, nil)
	_, err = client.Connect(Timeout(t), p.Caller.Transport("missing"), nil)
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != acpmcp.CodeServerUnavailable {
		t.Fatalf("Connect error = %v, want JSON-RPC error %d", err, acpmcp.CodeServerUnavailable)
	}
}

func testLimitAndDuplicate(t *testing.T, p *Pair) {
	reg, started, ended, release := Blocking(t, p.Provider, 2)
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for _, id := range []string{"r1", "r2"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := p.Caller.Request(Timeout(t), reg.ServerID(), "tools/call", nil, &acpmcp.RequestOptions{RequestID: id})
			errs <- err
		}()
	}
	<-started
	<-started
	_, err := p.Caller.Request(Timeout(t), reg.ServerID(), "tools/call", nil, &acpmcp.RequestOptions{RequestID: "r3"})
	wantCode(t, err, acpmcp.CodeResourceLimitExceeded)
	// The same inner request ID on the same server, while active: the
	// caller refuses it; the provider answers -32602 to a peer that sends it.
	_, err = p.Provider.Serve(Timeout(t), acpmcp.Message{ServerID: reg.ServerID(), RequestID: "r1", Method: "tools/call"})
	wantCode(t, err, acpmcp.CodeInvalidParams)
	close(release)
	wg.Wait()
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("an admitted request failed: %v", err)
		}
		if err := <-ended; err != nil {
			t.Errorf("a handler ended with %v", err)
		}
	}
	// Past the flood, the server serves again.
	out, err := p.Caller.Request(Timeout(t), reg.ServerID(), "ping", nil, nil)
	if err != nil || string(out.Result) != "{}" {
		t.Fatalf("after the flood: %s, %v; want {}", out.Result, err)
	}
	<-started
	<-ended
}

func testCallerCancels(t *testing.T, p *Pair) {
	reg, started, ended, _ := Blocking(t, p.Provider, 0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := p.Caller.Request(ctx, reg.ServerID(), "tools/call", nil, nil)
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Request = %v, want context.Canceled", err)
	}
	// $/cancel_request reached the handler's context.
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Fatalf("the handler ended with %v, want its context cancelled", err)
	}
}

func testMCPClientCancels(t *testing.T, p *Pair) {
	s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	started, ended := make(chan struct{}, 1), make(chan error, 1)
	mcp.AddTool(s, &mcp.Tool{Name: "wait"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		started <- struct{}{}
		<-ctx.Done()
		ended <- ctx.Err()
		return nil, nil, ctx.Err()
	})
	reg, err := p.Provider.RegisterServer("slow", s, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := p.Connect(t, reg.ServerID(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{}})
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("CallTool = %v, want context.Canceled", err)
	}
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the tool ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the tool's context was not cancelled")
	}
}

func testServerNeverAnswers(t *testing.T, p *Pair) {
	reg, started, ended, _ := Blocking(t, p.Provider, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := p.Caller.Request(ctx, reg.ServerID(), "tools/call", nil, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Request = %v, want the deadline", err)
	}
	<-started
	if err := <-ended; err == nil {
		t.Fatal("the handler was not cancelled")
	}
}

func testConnectionClosesMidRequest(t *testing.T, p *Pair) {
	reg, started, ended, _ := Blocking(t, p.Provider, 0)
	done := make(chan error, 1)
	go func() {
		_, err := p.Caller.Request(context.Background(), reg.ServerID(), "tools/call", nil, nil)
		done <- err
	}()
	<-started
	p.Cut()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Request succeeded on a closed connection")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Request did not end when the connection closed")
	}
	select {
	case err := <-ended:
		if err == nil {
			t.Fatal("the handler was not cancelled")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler was not cancelled when the connection closed")
	}
}

func testRegistrationClose(t *testing.T, p *Pair) {
	reg, started, ended, _ := Blocking(t, p.Provider, 0)
	done := make(chan error, 1)
	go func() {
		_, err := p.Caller.Request(Timeout(t), reg.ServerID(), "tools/call", nil, nil)
		done <- err
	}()
	<-started
	if err := reg.Close(Timeout(t)); err != nil {
		t.Fatal(err)
	}
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Fatalf("the active handler ended with %v, want cancelled", err)
	}
	wantCode(t, <-done, acpmcp.CodeRequestCancelled)
	_, err := p.Caller.Request(Timeout(t), reg.ServerID(), "tools/call", nil, nil)
	wantCode(t, err, acpmcp.CodeServerUnavailable)
	if _, err := p.Provider.Register("again", func(context.Context, *acpmcp.Request) (acpmcp.Outcome, error) {
		return acpmcp.Outcome{}, nil
	}, &acpmcp.ServerOptions{ServerID: reg.ServerID()}); err == nil {
		t.Fatal("a server ID was reused")
	}
}

func testHandlerFailures(t *testing.T, p *Pair) {
	register := func(h acpmcp.Handler) string {
		reg, err := p.Provider.Register("h", h, nil)
		if err != nil {
			t.Fatal(err)
		}
		return reg.ServerID()
	}
	panics := register(func(context.Context, *acpmcp.Request) (acpmcp.Outcome, error) { panic("secret /home/path") })
	_, err := p.Caller.Request(Timeout(t), panics, "x", nil, nil)
	e := wantCode(t, err, acpmcp.CodeBackendFailed)
	if e.Message != "MCP server handler failed" || strings.Contains(e.Message+string(e.Data), "secret") {
		t.Errorf("panic answered %q %s; the panic text must stay in the process", e.Message, e.Data)
	}
	invalid := register(func(context.Context, *acpmcp.Request) (acpmcp.Outcome, error) { return acpmcp.Outcome{}, nil })
	_, err = p.Caller.Request(Timeout(t), invalid, "x", nil, nil)
	if e := wantCode(t, err, acpmcp.CodeBackendFailed); !strings.Contains(e.Message, "invalid outcome") {
		t.Errorf("message %q", e.Message)
	}
	fails := register(func(context.Context, *acpmcp.Request) (acpmcp.Outcome, error) {
		return acpmcp.Outcome{}, errors.New("disk full")
	})
	_, err = p.Caller.Request(Timeout(t), fails, "x", nil, nil)
	if e := wantCode(t, err, acpmcp.CodeBackendFailed); string(e.Data) != `{"details":"disk full"}` {
		t.Errorf("data %s", e.Data)
	}
	inner := register(func(context.Context, *acpmcp.Request) (acpmcp.Outcome, error) {
		return acpmcp.Outcome{}, &acpmcp.MCPError{Code: -32001, Message: "nope", Data: json.RawMessage(`{"x":1}`)}
	})
	out, err := p.Caller.Request(Timeout(t), inner, "x", nil, nil)
	if err != nil || out.Error == nil || out.Error.Code != -32001 || out.Error.Message != "nope" || string(out.Error.Data) != `{"x":1}` {
		t.Fatalf("inner error: %+v, %v", out.Error, err)
	}
}

func testInnerMetaAndNotifications(t *testing.T, p *Pair) {
	var got *acpmcp.Request
	reg, err := p.Provider.Register("meta", func(ctx context.Context, req *acpmcp.Request) (acpmcp.Outcome, error) {
		got = req
		if err := req.Notify(ctx, "notifications/progress", json.RawMessage(`{"progress":1}`)); err != nil {
			return acpmcp.Outcome{}, err
		}
		return acpmcp.Outcome{Result: json.RawMessage(`null`)}, nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var notes []acpmcp.Message
	out, err := p.Caller.Request(Timeout(t), reg.ServerID(), "x", json.RawMessage(`{"a":1}`), &acpmcp.RequestOptions{
		OnNotification: func(m acpmcp.Message) { notes = append(notes, m) },
	})
	if err != nil || string(out.Result) != "null" {
		t.Fatalf("Request = %s, %v; want the null result", out.Result, err)
	}
	if got.ProtocolVersion != acpmcp.ProtocolVersion || string(got.ClientInfo) != `{"name":"test-agent","version":"1"}` || string(got.ClientCapabilities) != `{}` {
		t.Errorf("inner meta: version %q, info %s, capabilities %s", got.ProtocolVersion, got.ClientInfo, got.ClientCapabilities)
	}
	if len(notes) != 1 || notes[0].Method != "notifications/progress" || string(notes[0].Params) != `{"progress":1}` {
		t.Errorf("notifications = %+v, want the one progress notification", notes)
	}
	// After the response, the request's notifications go nowhere.
	if err := got.Notify(context.Background(), "late", nil); err != nil {
		t.Errorf("a late notification: %v", err)
	}
}

func testProgressThroughMCPClient(t *testing.T, p *Pair) {
	s := mcp.NewServer(&mcp.Implementation{Name: "progress", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "work"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		for i := 1; i <= 3; i++ {
			if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Total: 3}); err != nil {
				return nil, nil, err
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	reg, err := p.Provider.RegisterServer("progress", s, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var progress []float64
	cs := p.Connect(t, reg.ServerID(), &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		progress = append(progress, req.Params.Progress)
		mu.Unlock()
	}})
	params := &mcp.CallToolParams{Name: "work", Arguments: map[string]any{}}
	params.SetProgressToken("tok")
	res, err := cs.CallTool(Timeout(t), params)
	if err != nil || res.IsError {
		t.Fatalf("tools/call: %v %+v", err, res)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(progress)
		mu.Unlock()
		if n == 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(progress) != 3 || progress[0] != 1 || progress[2] != 3 {
		t.Fatalf("progress = %v, want 1, 2, 3", progress)
	}
}
