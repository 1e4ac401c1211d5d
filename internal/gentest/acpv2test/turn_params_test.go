package acpv2test

import (
	"context"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// TestTurnSessionRequestAndPlan: a turn sees its session's new-session
// parameters as received, and Plan sends the plan as a plan_update.
func TestTurnSessionRequestAndPlan(t *testing.T) {
	got := make(chan *acpv2.NewSessionRequest, 1)
	p := turnPeer(t, func(ctx context.Context, turn *acpv2.Turn) error {
		got <- turn.SessionRequest()
		return turn.Plan(ctx, "plan_1", []acpv2.PlanEntry{{Content: "read", Priority: acpv2.PlanEntryPriorityHigh, Status: acpv2.PlanEntryStatusPending}})
	}, nil)
	p.send(`{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":"/src","mcpServers":[{"type":"http","name":"tools","url":"http://127.0.0.1:1/mcp","headers":[]}],"_meta":{"k": 1}}}`)
	if line := p.recv(); !strings.Contains(line, `"sessionId":"sess_2"`) {
		t.Fatalf("session/new: %s", line)
	}
	p.send(`{"jsonrpc":"2.0","id":6,"method":"session/prompt","params":{"sessionId":"sess_2","prompt":[{"type":"text","text":"hi"}]}}`)
	var plan string
	for line := p.recv(); !strings.Contains(line, `"idle"`); line = p.recv() {
		if strings.Contains(line, "plan_update") {
			plan = line
		}
	}
	if !strings.Contains(plan, `"planId":"plan_1"`) || !strings.Contains(plan, `"content":"read"`) {
		t.Errorf("plan update: %q", plan)
	}
	r := <-got
	if r.Cwd != "/src" || len(r.MCPServers) != 1 || string(r.Meta) != `{"k": 1}` {
		t.Errorf("session request: cwd %q, %d MCP servers, _meta %s", r.Cwd, len(r.MCPServers), r.Meta)
	}
	if h, ok := r.MCPServers[0].Value.(*acpv2.MCPServerHTTPVariant); !ok || h.Name != "tools" {
		t.Errorf("MCP server: %#v", r.MCPServers[0].Value)
	}
}
