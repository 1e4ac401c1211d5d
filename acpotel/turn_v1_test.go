package acpotel_test

import (
	"context"
	"io"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// runnerV1 is a v1 agent made of a TurnRunner whose turn sends a plan
// and asks permission.
type runnerV1 struct{ *acpv1.TurnRunner }

func (runnerV1) Initialize(context.Context, *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return acpv1.NewInitializeResponse(1), nil
}

// TestTurnTraceV1 traces a v1 TurnRunner's turn over a pipe: its update
// and its permission request are in the prompt's trace, children of the
// agent's prompt span, and no span has a trace of its own.
func TestTurnTraceV1(t *testing.T) {
	tel := newTelemetry()
	ar, cw := io.Pipe()
	cr, aw := io.Pipe()
	ac := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
		return runnerV1{acpv1.NewTurnRunner(c, func(ctx context.Context, turn *acpv1.Turn) error {
			if err := turn.Plan(ctx, []acpv1.PlanEntry{}); err != nil {
				return err
			}
			_, err := turn.RequestPermission(ctx, acpv1.NewRequestPermissionRequest(turn.SessionID(), acpv1.ToolCallUpdate{ToolCallID: "t"},
				[]acpv1.PermissionOption{{OptionID: "yes", Name: "Yes", Kind: acpv1.PermissionOptionKindAllowOnce}}))
			return err
		}, nil)}
	}, aw, ar, acpv1.WithMiddleware(tel.middleware()))
	defer ac.Close()
	cc := acpv1.NewClientSideConnection(clientV1{}, cw, cr, acpv1.WithMiddleware(tel.middleware()))
	defer cc.Close()
	ctx := context.Background()
	if _, err := cc.Initialize(ctx, &acpv1.InitializeRequest{ProtocolVersion: 1}); err != nil {
		t.Fatal(err)
	}
	s, err := cc.NewSession(ctx, acpv1.NewNewSessionRequest("/w", []acpv1.MCPServer{}))
	if err != nil {
		t.Fatal(err)
	}
	before := len(tel.spans.Ended())
	if _, err := cc.Prompt(ctx, acpv1.NewPromptRequest(s.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")})); err != nil {
		t.Fatal(err)
	}
	clientPrompt := tel.find(t, "session/prompt", trace.SpanKindClient)
	agentPrompt := tel.find(t, "session/prompt", trace.SpanKindServer)
	childOf(t, agentPrompt, clientPrompt)
	childOf(t, tel.find(t, "session/request_permission", trace.SpanKindClient), agentPrompt)
	for _, sp := range tel.spans.Ended()[before:] {
		if sp.SpanContext().TraceID() != clientPrompt.SpanContext().TraceID() {
			t.Errorf("span %s/%v is in a trace of its own; spans: %s", sp.Name(), sp.SpanKind(), tel.names())
		}
	}
	// The plan is an event of the agent's prompt span.
	if n := len(agentPrompt.Events()); n != 1 {
		t.Errorf("the agent's prompt span has %d events, want 1; spans: %s", n, tel.names())
	}
}
