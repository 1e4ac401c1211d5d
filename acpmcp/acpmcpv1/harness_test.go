//go:build unstable_mcp_over_acp || unstable

package acpmcpv1

import (
	"context"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testClient is a client that embeds the provider.
type testClient struct {
	*Provider
}

func (*testClient) RequestPermission(context.Context, *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return nil, acpv1.NewMethodNotFoundError("session/request_permission")
}

func (*testClient) SessionUpdate(context.Context, *acpv1.SessionNotification) error { return nil }

// testAgent is an agent that embeds the caller and records the servers of
// its sessions.
type testAgent struct {
	*Caller
	servers chan []acpv1.MCPServer
}

func (a *testAgent) Initialize(context.Context, *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	resp := &acpv1.InitializeResponse{ProtocolVersion: 1, AgentCapabilities: &acpv1.AgentCapabilities{}}
	Advertise(resp.AgentCapabilities)
	return resp, nil
}

func (*testAgent) Cancel(context.Context, *acpv1.CancelNotification) error { return nil }

func (a *testAgent) NewSession(_ context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	select {
	case a.servers <- p.MCPServers:
	default:
	}
	return &acpv1.NewSessionResponse{SessionID: "s1"}, nil
}

func (*testAgent) Prompt(context.Context, *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	return &acpv1.PromptResponse{StopReason: acpv1.StopReasonEndTurn}, nil
}

// pair is a client with a provider and an agent with a caller, connected
// over pipes.
type pair struct {
	provider  *Provider
	caller    *Caller
	agent     *testAgent
	clientCon *acpv1.ClientSideConnection
	agentCon  *acpv1.AgentSideConnection
	// cut ends the transport under both connections, as when the peer's
	// process exits.
	cut func()
	// caps are the agent's capabilities, from initialize.
	caps *acpv1.AgentCapabilities
}

// newPair connects a client and an agent; both connections are closed at
// the end of the test, and no goroutine may be left then.
func newPair(t *testing.T) *pair {
	t.Helper()
	checkGoroutines(t)
	p := &pair{provider: NewProvider(), caller: NewCaller(&acpmcp.CallerOptions{
		ClientInfo: map[string]string{"name": "test-agent", "version": "1"},
	})}
	p.agent = &testAgent{Caller: p.caller, servers: make(chan []acpv1.MCPServer, 1)}
	cr, aw := io.Pipe()
	ar, cw := io.Pipe()
	p.clientCon = acpv1.NewClientSideConnection(&testClient{Provider: p.provider}, cw, cr)
	p.agentCon = acpv1.NewAgentSideConnection(p.agent, aw, ar)
	p.cut = func() { aw.Close(); cw.Close() }
	p.provider.Bind(p.clientCon)
	p.caller.Bind(p.agentCon)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := p.clientCon.Initialize(ctx, &acpv1.InitializeRequest{ProtocolVersion: 1})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	p.caps = resp.AgentCapabilities
	t.Cleanup(func() {
		p.clientCon.Close()
		p.agentCon.Close()
		<-p.clientCon.Done()
		<-p.agentCon.Done()
	})
	return p
}

// connect connects an MCP client to the declared server id through the
// caller; the session is closed at the end of the test.
func (p *pair) connect(t *testing.T, id string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, p.caller.Transport(id), nil)
	if err != nil {
		t.Fatalf("connecting the MCP client: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// checkGoroutines fails the test when, at its end, more goroutines run than
// at its start (after a grace period for the ones ending).
func checkGoroutines(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<16)
			t.Errorf("%d goroutines left (%d before):\n%s", n-before, before, buf[:runtime.Stack(buf, true)])
		}
	})
}

// echoServer is a Go MCP SDK server with one tool, "echo", which reports
// its progress when asked to.
func echoServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "echo-server", Version: "1"}, nil)
	type in struct {
		Text string `json:"text"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes text"}, func(ctx context.Context, req *mcp.CallToolRequest, args in) (*mcp.CallToolResult, any, error) {
		if token := req.Params.GetProgressToken(); token != nil {
			if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: 1, Total: 1}); err != nil {
				return nil, nil, err
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + args.Text}}}, nil, nil
	})
	return s
}
