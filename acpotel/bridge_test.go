package acpotel_test

import (
	"context"
	"io"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// agentV2 runs each turn after answering its prompt, in the prompt's
// trace: an update, a permission request, and the idle state.
type agentV2 struct{ conn *acpv2.AgentSideConnection }

func (a *agentV2) Initialize(context.Context, *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	r := acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "v2-agent", Version: "2.0"})
	r.AuthMethods = []acpv2.AuthMethod{}
	return r, nil
}
func (a *agentV2) NewSession(context.Context, *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	return &acpv2.NewSessionResponse{SessionID: "s1"}, nil
}
func (a *agentV2) CancelSession(context.Context, *acpv2.CancelSessionNotification) error { return nil }
func (a *agentV2) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	go func() {
		<-ctx.Done() // the answer is written
		turn := context.WithoutCancel(ctx)
		send := func(u acpv2.SessionUpdate) {
			_ = a.conn.UpdateSession(turn, acpv2.NewUpdateSessionNotification(p.SessionID, u))
		}
		send(acpv2.NewSessionUpdateAgentMessageChunk("r1", acpv2.NewContentBlockText("hello")))
		_, _ = a.conn.RequestPermission(turn, acpv2.NewRequestPermissionRequest(p.SessionID, "may I?",
			[]acpv2.PermissionOption{{OptionID: "yes", Name: "Yes", Kind: acpv2.PermissionOptionKindAllowOnce}}))
		send(acpv2.SessionUpdate{Value: &acpv2.SessionUpdateStateUpdate{StateUpdate: acpv2.StateUpdate{
			Value: &acpv2.StateUpdateIdle{IdleStateUpdate: acpv2.NewIdleStateUpdateEndTurn()}}}})
	}()
	return acpv2.NewPromptResponse("m1"), nil
}

// TestOneSpanThroughBridge traces a v1 client and a v2 agent behind the
// bridge: each call is one span on the agent's side, not one for each of
// the bridge's three connections, and the trace runs through.
func TestOneSpanThroughBridge(t *testing.T) {
	tel := newTelemetry()
	ar, cw := io.Pipe()
	cr, aw := io.Pipe()
	agent := &agentV2{}
	b := convert.NewBridgeFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent { agent.conn = c; return agent },
		aw, ar, convert.BridgeOptions{Middleware: []acpv2.Middleware{tel.middleware()}})
	cc := acpv1.NewClientSideConnection(clientV1{}, cw, cr, acpv1.WithMiddleware(tel.middleware()))
	defer func() { cw.Close(); <-b.Done() }()
	ctx := context.Background()
	init := &acpv1.InitializeRequest{ProtocolVersion: 1, ClientInfo: &acpv1.Implementation{Name: "v1-client", Version: "1"}}
	if _, err := cc.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.Prompt(ctx, &acpv1.PromptRequest{SessionID: "s1", Prompt: []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")}}); err != nil {
		t.Fatal(err)
	}
	clientPrompt := tel.find(t, "session/prompt", trace.SpanKindClient)
	agentPrompt := tel.find(t, "session/prompt", trace.SpanKindServer)
	childOf(t, agentPrompt, clientPrompt)
	out := tel.find(t, "session/request_permission", trace.SpanKindClient)
	childOf(t, out, agentPrompt)
	childOf(t, tel.find(t, "session/request_permission", trace.SpanKindServer), out)
	tel.find(t, "initialize", trace.SpanKindServer)
	if n := len(tel.spans.Ended()); n > 12 {
		t.Errorf("%d spans: %s", n, tel.names())
	}
	// The client's turn holds the update it got as an event (the idle
	// state ends the v1 prompt instead of reaching the client).
	if n := len(clientPrompt.Events()); n != 1 {
		t.Errorf("the client's prompt span has %d events, want 1; spans %s", n, tel.names())
	}
}
