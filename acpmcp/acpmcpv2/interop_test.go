//go:build unstable_mcp_over_acp || unstable

package acpmcpv2

import (
	"testing"

	"github.com/acpgen/acpgen/acpmcp/internal/mcptest"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// TestGoProviderToTypeScriptV2Agent: a Go v2 client's provider serves a Go
// MCP SDK server to an agent written with the TypeScript SDK's v2 API and
// its McpOverAcpCaller.
func TestGoProviderToTypeScriptV2Agent(t *testing.T) {
	mcptest.CheckGoroutines(t)
	w, r, wait := mcptest.StartNode(t, "mcp_caller_v2.mjs")
	provider := NewProvider()
	conn := acpv2.NewClientSideConnection(&testClient{Provider: provider}, w, r)
	provider.Bind(conn)
	reg, err := provider.RegisterServer("go-tools", mcptest.EchoServer(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := mcptest.Timeout(t)
	init, err := conn.Initialize(ctx, &acpv2.InitializeRequest{ProtocolVersion: 2, Info: acpv2.Implementation{Name: "go-client", Version: "1"}})
	if err != nil {
		t.Fatal(err)
	}
	servers, err := Declare(init.Capabilities, reg)
	if err != nil {
		t.Fatalf("the TypeScript v2 agent advertises session.mcp.acp: %v", err)
	}
	if _, err := conn.NewSession(ctx, &acpv2.NewSessionRequest{Cwd: "/", MCPServers: servers}); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	w.Close()
	got := mcptest.ReadCallerReport(t, wait(), reg, "echo: from TypeScript v2")
	if len(got.List.Result.Tools) != 1 || got.List.Result.Tools[0].Name != "echo" {
		t.Errorf("tools/list: %+v", got.List)
	}
	// The provider sent the call's progress, scoped to its request; whether
	// the TypeScript caller routed it depends on when its v2 API ran the
	// handler relative to the response, so the routed copy is not required.
	if len(got.Received) != 1 || got.Received[0].Method != "notifications/progress" || got.Received[0].ServerID != reg.ServerID() ||
		got.Received[0].RequestID == "" || len(got.Notes) > 1 {
		t.Errorf("notifications: received %+v, routed %+v", got.Received, got.Notes)
	}
}
