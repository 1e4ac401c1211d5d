//go:build unstable_mcp_over_acp || unstable

package acpmcpv2

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpmcp"
	"github.com/acpgen/acpgen/acpmcp/internal/mcptest"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/node"
)

// TestGoProviderToTypeScriptV2Agent: a Go v2 client's provider serves a Go
// MCP SDK server to an agent written with the TypeScript SDK's v2 API and
// its McpOverAcpCaller.
func TestGoProviderToTypeScriptV2Agent(t *testing.T) {
	mcptest.CheckGoroutines(t)
	bin := node.Require(t)
	cmd := exec.Command(bin, filepath.Join(node.Dir(), "mcp_caller_v2.mjs"))
	cmd.Env = []string{"HOME=" + t.TempDir()}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	defer func() {
		_ = cmd.Process.Kill()
		<-exited
	}()
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
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("the agent did not exit; stderr: %s", stderr.Bytes())
	}
	var got struct {
		Error   string `json:"error"`
		Servers []struct {
			Type, ServerID string
		} `json:"servers"`
		List struct {
			Result struct {
				Tools []struct{ Name string } `json:"tools"`
			} `json:"result"`
		} `json:"list"`
		Call struct {
			Result struct {
				Content []struct{ Text string } `json:"content"`
			} `json:"result"`
		} `json:"call"`
		Notes    []struct{ Method string } `json:"notes"`
		Received []struct {
			ServerID, RequestID, Method string
		} `json:"received"`
		UnknownServer struct {
			Code int64 `json:"code"`
		} `json:"unknownServer"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(stderr.Bytes()), &got); err != nil || got.Error != "" {
		t.Fatalf("the TypeScript v2 agent printed %s: %v", stderr.Bytes(), err)
	}
	if len(got.Servers) != 1 || got.Servers[0].Type != "acp" || got.Servers[0].ServerID != reg.ServerID() {
		t.Errorf("the agent's acp servers: %+v", got.Servers)
	}
	if len(got.List.Result.Tools) != 1 || got.List.Result.Tools[0].Name != "echo" {
		t.Errorf("tools/list: %+v", got.List)
	}
	if c := got.Call.Result.Content; len(c) != 1 || c[0].Text != "echo: from TypeScript v2" {
		t.Errorf("tools/call: %+v", c)
	}
	// The provider sent the call's progress, scoped to its request; whether
	// the TypeScript caller routed it depends on when its v2 API ran the
	// handler relative to the response, so the routed copy is not required.
	if len(got.Received) != 1 || got.Received[0].Method != "notifications/progress" || got.Received[0].ServerID != reg.ServerID() ||
		got.Received[0].RequestID == "" || len(got.Notes) > 1 {
		t.Errorf("notifications: received %+v, routed %+v", got.Received, got.Notes)
	}
	if got.UnknownServer.Code != acpmcp.CodeServerUnavailable {
		t.Errorf("an unknown server: %+v", got.UnknownServer)
	}
}
