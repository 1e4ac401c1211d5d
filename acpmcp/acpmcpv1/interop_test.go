//go:build unstable_mcp_over_acp || unstable

package acpmcpv1

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/acpmcp/internal/mcptest"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// interopAgent is a Go agent that, when prompted, calls the declared
// server through the caller as an mcp.Client and records what it saw.
type interopAgent struct {
	testAgent
	mu     sync.Mutex
	report struct {
		tools          []string
		text           string
		progress       int
		unknownToolErr error
		limitErr       error
		waitErr        error
	}
}

func (a *interopAgent) Prompt(ctx context.Context, _ *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	servers := ACPServers(<-a.servers)
	if len(servers) != 1 {
		return nil, errors.New("expected one acp server")
	}
	id := string(servers[0].ServerID)
	client := mcp.NewClient(&mcp.Implementation{Name: "go-agent", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
			a.mu.Lock()
			a.report.progress++
			a.mu.Unlock()
		},
	})
	cs, err := client.Connect(ctx, a.Transport(id), nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, tool := range list.Tools {
		a.report.tools = append(a.report.tools, tool.Name)
	}
	params := &mcp.CallToolParams{Name: "shout", Arguments: map[string]any{"text": "from go"}}
	params.SetProgressToken("p1")
	a.mu.Unlock()
	res, err := cs.CallTool(ctx, params)
	a.mu.Lock()
	if err != nil {
		return nil, err
	}
	a.report.text = res.Content[0].(*mcp.TextContent).Text
	_, a.report.unknownToolErr = cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{}})
	// The server admits one request at a time: a second one, while "wait"
	// runs, is past its limit; then "wait" is cancelled. A "wait" that
	// arrives while a probe is active is itself refused, and sent again.
	waitCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var waitDone chan error
	for try := 0; a.report.limitErr == nil && try < 500; try++ {
		if waitDone == nil {
			waitDone = make(chan error, 1)
			go func(done chan error) {
				_, err := cs.CallTool(waitCtx, &mcp.CallToolParams{Name: "wait", Arguments: map[string]any{}})
				done <- err
			}(waitDone)
		}
		time.Sleep(10 * time.Millisecond)
		select {
		case <-waitDone:
			waitDone = nil
			continue
		default:
		}
		_, err := a.Request(ctx, id, "tools/list", nil, nil)
		var e *acpmcp.Error
		if errors.As(err, &e) && e.Code == acpmcp.CodeResourceLimitExceeded {
			a.report.limitErr = err
		}
	}
	if waitDone == nil {
		return nil, errors.New("the limit was never reached")
	}
	cancel()
	a.report.waitErr = <-waitDone
	return &acpv1.PromptResponse{StopReason: acpv1.StopReasonEndTurn}, nil
}

func TestTypeScriptProviderToGoAgent(t *testing.T) {
	mcptest.CheckGoroutines(t)
	w, r, wait := mcptest.StartNode(t, "mcp_provider.mjs")
	agent := &interopAgent{testAgent: testAgent{servers: make(chan []acpv1.MCPServer, 1)}}
	agent.Caller = NewCaller(nil)
	conn := acpv1.NewAgentSideConnection(agent, w, r)
	agent.Bind(conn)
	defer conn.Close()
	stderr := wait()
	var got struct {
		StopReason string `json:"stopReason"`
		Seen       []struct {
			Method          string          `json:"method"`
			ProtocolVersion string          `json:"protocolVersion"`
			ClientInfo      json.RawMessage `json:"clientInfo"`
			Aborted         bool            `json:"aborted"`
		} `json:"seen"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(stderr), &got); err != nil {
		t.Fatalf("the TypeScript client printed %s: %v", stderr, err)
	}
	if got.StopReason != "end_turn" {
		t.Fatalf("stop reason %q; stderr %s", got.StopReason, stderr)
	}
	methods := map[string]bool{}
	for _, s := range got.Seen {
		methods[s.Method] = true
		if s.Method == "wait" {
			methods["wait aborted"] = s.Aborted
			continue
		}
		if s.ProtocolVersion != acpmcp.ProtocolVersion || !bytes.Contains(s.ClientInfo, []byte(`"name":"go-agent"`)) {
			t.Errorf("%s: the handler saw version %q, client info %s", s.Method, s.ProtocolVersion, s.ClientInfo)
		}
	}
	for _, m := range []string{"server/discover", "tools/list", "tools/call", "wait aborted"} {
		if !methods[m] {
			t.Errorf("the TypeScript handler did not see %s: %s", m, stderr)
		}
	}
	agent.mu.Lock()
	defer agent.mu.Unlock()
	rep := agent.report
	if len(rep.tools) != 1 || rep.tools[0] != "shout" || rep.text != "FROM GO" || rep.progress != 1 {
		t.Errorf("the Go agent saw tools %v, text %q, %d progress notifications", rep.tools, rep.text, rep.progress)
	}
	var werr *jsonrpc.Error
	if !errors.As(rep.unknownToolErr, &werr) || werr.Code != -32602 {
		t.Errorf("an unknown tool: %v, want the inner MCP error -32602", rep.unknownToolErr)
	}
	if rep.limitErr == nil {
		t.Error("no request was refused past the limit")
	}
	if !errors.Is(rep.waitErr, context.Canceled) {
		t.Errorf("the cancelled call: %v", rep.waitErr)
	}
}

func TestGoProviderToTypeScriptAgent(t *testing.T) {
	mcptest.CheckGoroutines(t)
	w, r, wait := mcptest.StartNode(t, "mcp_caller.mjs")
	provider := NewProvider()
	conn := acpv1.NewClientSideConnection(&testClient{Provider: provider}, w, r)
	provider.Bind(conn)
	s := mcptest.EchoServer()
	waitEnded := make(chan error, 1)
	mcp.AddTool(s, &mcp.Tool{Name: "wait"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		<-ctx.Done()
		waitEnded <- ctx.Err()
		return nil, nil, ctx.Err()
	})
	reg, err := provider.RegisterServer("go-tools", s, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := mcptest.Timeout(t)
	init, err := conn.Initialize(ctx, &acpv1.InitializeRequest{ProtocolVersion: 1})
	if err != nil {
		t.Fatal(err)
	}
	servers, err := Declare(init.AgentCapabilities, reg)
	if err != nil {
		t.Fatalf("the TypeScript agent advertises mcpCapabilities.acp: %v", err)
	}
	sess, err := conn.NewSession(ctx, &acpv1.NewSessionRequest{Cwd: "/", MCPServers: servers})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Prompt(ctx, &acpv1.PromptRequest{SessionID: sess.SessionID, Prompt: []acpv1.ContentBlock{acpv1.NewContentBlockText("go")}}); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	w.Close()
	stderr := wait()
	got := mcptest.ReadCallerReport(t, stderr, reg, "echo: from TypeScript")
	if n := len(got.List.Result.Tools); n != 2 {
		t.Errorf("tools/list listed %d tools, want 2: %s", n, stderr)
	}
	if len(got.Notes) != 1 || got.Notes[0].Method != "notifications/progress" {
		t.Errorf("the TypeScript caller's notifications: %+v", got.Notes)
	}
	if !bytes.Contains(got.UnknownTool, []byte(`"error":{"code":-32602`)) {
		t.Errorf("an unknown tool: %s, want the inner MCP error", got.UnknownTool)
	}
	if got.Cancelled.Code != acpmcp.CodeRequestCancelled {
		t.Errorf("a cancelled call: %+v", got.Cancelled)
	}
	select {
	case err := <-waitEnded:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the wait tool ended with %v", err)
		}
	default:
		t.Error("the TypeScript caller's cancel did not reach the Go tool")
	}
}
