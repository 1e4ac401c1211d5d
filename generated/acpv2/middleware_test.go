package acpv2

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
)

type mwAgent struct{ conn *AgentSideConnection }

func (a *mwAgent) Initialize(context.Context, *InitializeRequest) (*InitializeResponse, error) {
	r := NewInitializeResponse(2, Implementation{Name: "agent", Version: "1"})
	r.AuthMethods = []AuthMethod{}
	return r, nil
}
func (a *mwAgent) NewSession(context.Context, *NewSessionRequest) (*NewSessionResponse, error) {
	return &NewSessionResponse{SessionID: "s1"}, nil
}
func (a *mwAgent) Prompt(ctx context.Context, p *PromptRequest) (*PromptResponse, error) {
	err := a.conn.UpdateSession(ctx, NewUpdateSessionNotification(p.SessionID,
		NewSessionUpdateAgentMessageChunk("m1", NewContentBlockText("secret answer"))))
	return NewPromptResponse("m1"), err
}
func (a *mwAgent) CancelSession(context.Context, *CancelSessionNotification) error { return nil }

type mwClient struct{}

func (mwClient) RequestPermission(context.Context, *RequestPermissionRequest) (*RequestPermissionResponse, error) {
	return nil, NewInternalError(nil)
}
func (mwClient) UpdateSession(context.Context, *UpdateSessionNotification) error { return nil }

// TestMiddlewareV2 runs middleware on both sides of a v2 connection: it
// sees each call on each side, carries _meta across, and the wire log
// keeps envelopes alone.
func TestMiddlewareV2(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	record := func(side string) Middleware {
		return func(next Handler) Handler {
			return func(ctx context.Context, call Call) (any, error) {
				if !call.Inbound() {
					call.SetMeta("side", json.RawMessage(`"`+side+`"`))
				}
				result, err := next(ctx, call)
				mu.Lock()
				seen = append(seen, side+" "+call.Method()+" "+string(call.Meta("side")))
				mu.Unlock()
				return result, err
			}
		}
	}
	var wire bytes.Buffer
	ar, cw := io.Pipe()
	cr, aw := io.Pipe()
	agent := &mwAgent{}
	ac := NewAgentSideConnectionFunc(func(c *AgentSideConnection) Agent { agent.conn = c; return agent }, aw, ar,
		WithMiddleware(record("agent")))
	cc := NewClientSideConnection(mwClient{}, cw, cr, WithMiddleware(record("client")),
		WithWireLog(&wire, WireLogOptions{Envelopes: true}))
	ctx := context.Background()
	if _, err := cc.Initialize(ctx, NewInitializeRequest(2, Implementation{Name: "client", Version: "1"})); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.Prompt(ctx, NewPromptRequest("s1", []ContentBlock{NewContentBlockText("secret prompt")})); err != nil {
		t.Fatal(err)
	}
	cc.Close()
	ac.Close()
	mu.Lock()
	got := strings.Join(seen, "\n")
	mu.Unlock()
	for _, want := range []string{`agent initialize "client"`, `client initialize "client"`, `agent session/prompt "client"`,
		`agent session/update "agent"`, `client session/update "agent"`, `client session/prompt "client"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the middleware did not see %q:\n%s", want, got)
		}
	}
	if n := strings.Count(wire.String(), "\n"); n != 5 || strings.Contains(wire.String(), "secret") ||
		!strings.Contains(wire.String(), `"_meta":{"side":"agent"}`) {
		t.Errorf("the wire log has %d records:\n%s", n, wire.String())
	}
}
