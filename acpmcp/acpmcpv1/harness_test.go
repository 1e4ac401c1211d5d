//go:build unstable_mcp_over_acp || unstable

package acpmcpv1

import (
	"context"
	"testing"

	"github.com/acpgen/acpgen/acpmcp/internal/mcptest"
	"github.com/acpgen/acpgen/generated/acpv1"
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

// pair is the suite's pair (package mcptest) with this version's types:
// the connections, the agent, and the agent's capabilities from initialize.
type pair struct {
	*mcptest.Pair
	provider  *Provider
	caller    *Caller
	agent     *testAgent
	clientCon *acpv1.ClientSideConnection
	agentCon  *acpv1.AgentSideConnection
	caps      *acpv1.AgentCapabilities
}

// newPair connects a client and an agent; both connections are closed at
// the end of the test, and no goroutine may be left then.
func newPair(t *testing.T) *pair {
	t.Helper()
	mcptest.CheckGoroutines(t)
	p := &pair{provider: NewProvider(), caller: NewCaller(mcptest.CallerOptions())}
	p.agent = &testAgent{Caller: p.caller, servers: make(chan []acpv1.MCPServer, 1)}
	pipes := mcptest.NewPipes()
	p.clientCon = acpv1.NewClientSideConnection(&testClient{Provider: p.provider}, pipes.ClientW, pipes.ClientR)
	p.agentCon = acpv1.NewAgentSideConnection(p.agent, pipes.AgentW, pipes.AgentR)
	p.Pair = &mcptest.Pair{Provider: p.provider.Provider, Caller: p.caller.Caller, Cut: pipes.Cut}
	mcptest.CloseAtEnd(t, p.clientCon, p.agentCon)
	p.provider.Bind(p.clientCon)
	p.caller.Bind(p.agentCon)
	resp, err := p.clientCon.Initialize(mcptest.Timeout(t), &acpv1.InitializeRequest{ProtocolVersion: 1})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	p.caps = resp.AgentCapabilities
	p.Pair.Caps = p.capsAdapter()
	return p
}

// TestSuite runs the tests every binding passes (package mcptest) over a
// pair of this version.
func TestSuite(t *testing.T) {
	mcptest.Run(t, func(t *testing.T) *mcptest.Pair { return newPair(t).Pair })
}
