//go:build unstable_mcp_over_acp || unstable

package acpmcpv2

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpmcp/acpmcpv1"
	"github.com/acpgen/acpgen/acpmcp/internal/mcptest"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// v1Client is a v1 client that embeds a v1 provider.
type v1Client struct {
	*acpmcpv1.Provider
}

func (v1Client) RequestPermission(context.Context, *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return nil, acpv1.NewMethodNotFoundError("session/request_permission")
}

func (v1Client) SessionUpdate(context.Context, *acpv1.SessionNotification) error { return nil }

// TestThroughVersionBridge: a v1 client's provider serves a v2 agent's
// caller through convert.Bridge, which carries the capability, the acp
// declaration and "mcp/message" both ways.
func TestThroughVersionBridge(t *testing.T) {
	mcptest.CheckGoroutines(t)
	caller := NewCaller(nil)
	agent := &testAgent{Caller: caller, servers: make(chan []acpv2.MCPServer, 1)}
	cr, bw := io.Pipe()
	br, cw := io.Pipe()
	bridge := convert.NewBridgeFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
		caller.Bind(c)
		return agent
	}, bw, br, convert.BridgeOptions{})
	provider := acpmcpv1.NewProvider()
	conn := acpv1.NewClientSideConnection(v1Client{provider}, cw, cr)
	provider.Bind(conn)
	defer func() {
		conn.Close()
		cw.Close()
		bw.Close()
		<-bridge.Done()
	}()
	ctx := mcptest.Timeout(t)
	init, err := conn.Initialize(ctx, &acpv1.InitializeRequest{ProtocolVersion: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !acpmcpv1.Advertised(init.AgentCapabilities) {
		t.Fatalf("the bridge dropped the v2 agent's session.mcp.acp: %+v", init.AgentCapabilities)
	}
	reg, err := provider.RegisterServer("tools", mcptest.EchoServer(), nil)
	if err != nil {
		t.Fatal(err)
	}
	servers, err := acpmcpv1.Declare(init.AgentCapabilities, reg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.NewSession(ctx, &acpv1.NewSessionRequest{Cwd: "/", MCPServers: servers}); err != nil {
		t.Fatal(err)
	}
	got := ACPServers(<-agent.servers)
	if len(got) != 1 || string(got[0].ServerID) != reg.ServerID() {
		t.Fatalf("the v2 agent received %+v", got)
	}
	progress := make(chan struct{}, 1)
	client := mcp.NewClient(&mcp.Implementation{Name: "v2-agent", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { progress <- struct{}{} },
	})
	cs, err := client.Connect(ctx, caller.Transport(reg.ServerID()), nil)
	if err != nil {
		t.Fatalf("connecting through the bridge: %v", err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "bridged"}}
	params.SetProgressToken("p")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.Content[0].(*mcp.TextContent).Text != "echo: bridged" {
		t.Fatalf("tools/call through the bridge: %v %+v", err, res)
	}
	// The MCP client handles notifications apart from responses.
	select {
	case <-progress:
	case <-time.After(5 * time.Second):
		t.Error("the progress notification did not cross the bridge")
	}
}
