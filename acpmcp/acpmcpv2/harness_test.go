//go:build unstable_mcp_over_acp || unstable

package acpmcpv2

import (
	"context"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testClient is a client that embeds the provider.
type testClient struct {
	*Provider
}

func (*testClient) RequestPermission(context.Context, *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	return nil, acpv2.NewMethodNotFoundError("session/request_permission")
}

func (*testClient) UpdateSession(context.Context, *acpv2.UpdateSessionNotification) error { return nil }

// testAgent is an agent that embeds the caller and records the servers of
// its sessions.
type testAgent struct {
	*Caller
	servers chan []acpv2.MCPServer
}

func (a *testAgent) Initialize(context.Context, *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	resp := &acpv2.InitializeResponse{ProtocolVersion: 2, Capabilities: &acpv2.AgentCapabilities{}}
	Advertise(resp.Capabilities)
	return resp, nil
}

func (*testAgent) CancelSession(context.Context, *acpv2.CancelSessionNotification) error { return nil }

// The session methods: Advertise puts session.mcp.acp under
// capabilities.session, and an agent that advertises sessions serves
// session/list, session/resume and session/close (acpv2.SessionAgent).
var _ acpv2.SessionAgent = (*testAgent)(nil)

func (*testAgent) ListSessions(context.Context, *acpv2.ListSessionsRequest) (*acpv2.ListSessionsResponse, error) {
	return acpv2.NewListSessionsResponse([]acpv2.SessionInfo{}), nil
}

func (*testAgent) ResumeSession(context.Context, *acpv2.ResumeSessionRequest) (*acpv2.ResumeSessionResponse, error) {
	return acpv2.NewResumeSessionResponse(), nil
}

func (*testAgent) CloseSession(context.Context, *acpv2.CloseSessionRequest) (*acpv2.CloseSessionResponse, error) {
	return acpv2.NewCloseSessionResponse(), nil
}

func (a *testAgent) NewSession(_ context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	select {
	case a.servers <- p.MCPServers:
	default:
	}
	return &acpv2.NewSessionResponse{SessionID: "s1"}, nil
}

func (*testAgent) Prompt(context.Context, *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	return nil, acpv2.NewMethodNotFoundError("session/prompt")
}

// pair is a client with a provider and an agent with a caller, connected
// over pipes.
type pair struct {
	provider  *Provider
	caller    *Caller
	agent     *testAgent
	clientCon *acpv2.ClientSideConnection
	agentCon  *acpv2.AgentSideConnection
	// cut ends the transport under both connections, as when the peer's
	// process exits.
	cut func()
	// caps are the agent's capabilities, from initialize.
	caps *acpv2.AgentCapabilities
}

// newPair connects a client and an agent; both connections are closed at
// the end of the test, and no goroutine may be left then.
func newPair(t *testing.T) *pair {
	t.Helper()
	checkGoroutines(t)
	p := &pair{provider: NewProvider(), caller: NewCaller(&acpmcp.CallerOptions{
		ClientInfo: map[string]string{"name": "test-agent", "version": "1"},
	})}
	p.agent = &testAgent{Caller: p.caller, servers: make(chan []acpv2.MCPServer, 1)}
	cr, aw := io.Pipe()
	ar, cw := io.Pipe()
	p.clientCon = acpv2.NewClientSideConnection(&testClient{Provider: p.provider}, cw, cr)
	p.agentCon = acpv2.NewAgentSideConnection(p.agent, aw, ar)
	p.cut = func() { aw.Close(); cw.Close() }
	p.provider.Bind(p.clientCon)
	p.caller.Bind(p.agentCon)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := p.clientCon.Initialize(ctx, &acpv2.InitializeRequest{ProtocolVersion: 2, Info: acpv2.Implementation{Name: "test-client", Version: "1"}})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	p.caps = resp.Capabilities
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
