package acpotel_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// runnerV2 is an agent made of a TurnRunner whose turn says a word, asks
// permission and sends a plan, after the prompt's answer.
type runnerV2 struct{ *acpv2.TurnRunner }

func (runnerV2) Initialize(context.Context, *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	r := acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "runner", Version: "1"})
	r.AuthMethods = []acpv2.AuthMethod{}
	return r, nil
}

func newRunnerV2(c *acpv2.AgentSideConnection) acpv2.Agent {
	return runnerV2{acpv2.NewTurnRunner(c, func(ctx context.Context, t *acpv2.Turn) error {
		if err := t.Say(ctx, "hello"); err != nil {
			return err
		}
		_, err := t.RequestPermission(ctx, acpv2.NewRequestPermissionRequest(t.SessionID(), "may I?",
			[]acpv2.PermissionOption{{OptionID: "yes", Name: "Yes", Kind: acpv2.PermissionOptionKindAllowOnce}}))
		return err
	}, nil)}
}

// clientV2 allows every permission and reports each idle state.
type clientV2 struct{ idle chan struct{} }

func (clientV2) RequestPermission(context.Context, *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeSelected("yes")), nil
}

func (c clientV2) UpdateSession(_ context.Context, n *acpv2.UpdateSessionNotification) error {
	if s, ok := n.Update.Value.(*acpv2.SessionUpdateStateUpdate); ok {
		if _, ok := s.StateUpdate.Value.(*acpv2.StateUpdateIdle); ok {
			c.idle <- struct{}{}
		}
	}
	return nil
}

// promptTurn runs one turn on cc and checks its trace: every span is in
// the client's prompt trace, and those the agent sends are children of
// the agent's prompt span.
func promptTurn(t *testing.T, tel *telemetry, cc *acpv2.ClientSideConnection, idle chan struct{}) {
	ctx := context.Background()
	if _, err := cc.Initialize(ctx, acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "c", Version: "1"})); err != nil {
		t.Fatal(err)
	}
	s, err := cc.NewSession(ctx, acpv2.NewNewSessionRequest("/w"))
	if err != nil {
		t.Fatal(err)
	}
	before := len(tel.spans.Ended())
	if _, err := cc.Prompt(ctx, acpv2.NewPromptRequest(s.SessionID, []acpv2.ContentBlock{acpv2.NewContentBlockText("hi")})); err != nil {
		t.Fatal(err)
	}
	<-idle
	cc.Close()
	clientPrompt := tel.find(t, "session/prompt", trace.SpanKindClient)
	agentPrompt := tel.find(t, "session/prompt", trace.SpanKindServer)
	childOf(t, agentPrompt, clientPrompt)
	childOf(t, tel.find(t, "session/request_permission", trace.SpanKindClient), agentPrompt)
	traceID := clientPrompt.SpanContext().TraceID()
	var updates int
	for _, sp := range tel.spans.Ended()[before:] {
		if sp.SpanContext().TraceID() != traceID {
			t.Errorf("span %s/%v is in a trace of its own; spans: %s", sp.Name(), sp.SpanKind(), tel.names())
		}
		if sp.Name() == "session/update" && sp.SpanKind() == trace.SpanKindClient {
			childOf(t, sp, agentPrompt)
			updates++
		}
	}
	// user_message, running, the chunk, requires_action, running, idle.
	if updates != 6 {
		t.Errorf("%d session/update spans sent by the agent, want 6; spans: %s", updates, tel.names())
	}
}

// TestTurnTraceV2 traces a TurnRunner's turn over a pipe: one trace.
func TestTurnTraceV2(t *testing.T) {
	tel := newTelemetry()
	ar, cw := io.Pipe()
	cr, aw := io.Pipe()
	ac := acpv2.NewAgentSideConnectionFunc(newRunnerV2, aw, ar, acpv2.WithMiddleware(tel.middleware()))
	defer ac.Close()
	idle := make(chan struct{}, 1)
	cc := acpv2.NewClientSideConnection(clientV2{idle}, cw, cr, acpv2.WithMiddleware(tel.middleware()))
	promptTurn(t, tel, cc, idle)
}

// TestTurnTraceV2HTTP traces a TurnRunner's turn over Streamable HTTP.
func TestTurnTraceV2HTTP(t *testing.T) {
	tel := newTelemetry()
	srv := acphttp.NewServer(func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		return acpv2.NewAgentSideConnectionFunc(newRunnerV2, out, in, acpv2.WithMiddleware(tel.middleware())), nil
	}, nil)
	hs := httptest.NewServer(srv)
	defer hs.Close()
	defer srv.Shutdown(context.Background())
	tr, err := acphttp.Dial(context.Background(), hs.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	idle := make(chan struct{}, 1)
	cc := acpv2.NewClientSideConnection(clientV2{idle}, tr, tr, acpv2.WithMiddleware(tel.middleware()))
	promptTurn(t, tel, cc, idle)
}
