//go:build unstable_mcp_over_acp || unstable

package acpmcpv2

import (
	"context"
	"testing"

	"github.com/acpgen/acpgen/acpmcp/internal/mcptest"
	"github.com/acpgen/acpgen/generated/acpv2"
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

// pair is the suite's pair (package mcptest) with this version's types:
// the connections, the agent, and the agent's capabilities from initialize.
type pair struct {
	*mcptest.Pair
	provider  *Provider
	caller    *Caller
	agent     *testAgent
	clientCon *acpv2.ClientSideConnection
	agentCon  *acpv2.AgentSideConnection
	caps      *acpv2.AgentCapabilities
}

// newPair connects a client and an agent; both connections are closed at
// the end of the test, and no goroutine may be left then.
func newPair(t *testing.T) *pair {
	t.Helper()
	mcptest.CheckGoroutines(t)
	p := &pair{provider: NewProvider(), caller: NewCaller(mcptest.CallerOptions())}
	p.agent = &testAgent{Caller: p.caller, servers: make(chan []acpv2.MCPServer, 1)}
	pipes := mcptest.NewPipes()
	p.clientCon = acpv2.NewClientSideConnection(&testClient{Provider: p.provider}, pipes.ClientW, pipes.ClientR)
	p.agentCon = acpv2.NewAgentSideConnection(p.agent, pipes.AgentW, pipes.AgentR)
	p.Pair = &mcptest.Pair{Provider: p.provider.Provider, Caller: p.caller.Caller, Cut: pipes.Cut}
	mcptest.CloseAtEnd(t, p.clientCon, p.agentCon)
	p.provider.Bind(p.clientCon)
	p.caller.Bind(p.agentCon)
	resp, err := p.clientCon.Initialize(mcptest.Timeout(t), &acpv2.InitializeRequest{ProtocolVersion: 2, Info: acpv2.Implementation{Name: "test-client", Version: "1"}})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	p.caps = resp.Capabilities
	p.Pair.Caps = p.capsAdapter()
	return p
}

// TestSuite runs the tests every binding passes (package mcptest) over a
// pair of this version.
func TestSuite(t *testing.T) {
	mcptest.Run(t, func(t *testing.T) *mcptest.Pair { return newPair(t).Pair })
}
