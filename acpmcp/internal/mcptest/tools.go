//go:build unstable_mcp_over_acp || unstable

package mcptest

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func testListAndCallTool(t *testing.T, p *Pair) {
	reg, err := p.Provider.RegisterServer("tools", EchoServer(), nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := p.Connect(t, reg.ServerID(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if len(tools.Tools) != 1 || tools.Tools[0].Name != "echo" {
		t.Fatalf("tools/list = %+v, want the echo tool", tools.Tools)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
	if err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; text != "echo: hi" || res.IsError {
		t.Fatalf("tools/call = %q (isError %v), want %q", text, res.IsError, "echo: hi")
	}
}
