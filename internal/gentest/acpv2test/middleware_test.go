package acpv2test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
)

type mwAgent struct{ conn *acpv2.AgentSideConnection }

func (a *mwAgent) Initialize(context.Context, *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	r := acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "agent", Version: "1"})
	r.AuthMethods = []acpv2.AuthMethod{}
	return r, nil
}
func (a *mwAgent) NewSession(context.Context, *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	return &acpv2.NewSessionResponse{SessionID: "s1"}, nil
}
func (a *mwAgent) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	err := a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(p.SessionID,
		acpv2.NewSessionUpdateAgentMessageChunk("m1", acpv2.NewContentBlockText("secret answer"))))
	return acpv2.NewPromptResponse("m1"), err
}
func (a *mwAgent) CancelSession(context.Context, *acpv2.CancelSessionNotification) error { return nil }

type mwClient struct{}

func (mwClient) RequestPermission(context.Context, *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	return nil, acpv2.NewInternalError(nil)
}
func (mwClient) UpdateSession(context.Context, *acpv2.UpdateSessionNotification) error { return nil }

// TestMiddlewareV2 runs middleware on both sides of a v2 connection: it
// sees each call on each side, carries _meta across, and the wire log
// keeps envelopes alone.
func TestMiddlewareV2(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	record := func(side string) acpv2.Middleware {
		return func(next acpv2.Handler) acpv2.Handler {
			return func(ctx context.Context, call acpv2.Call) (any, error) {
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
	ac := acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent { agent.conn = c; return agent }, aw, ar,
		acpv2.WithMiddleware(record("agent")))
	cc := acpv2.NewClientSideConnection(mwClient{}, cw, cr, acpv2.WithMiddleware(record("client")),
		acpv2.WithWireLog(&wire, acpv2.WireLogOptions{Envelopes: true}))
	ctx := context.Background()
	if _, err := cc.Initialize(ctx, acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "client", Version: "1"})); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.Prompt(ctx, acpv2.NewPromptRequest("s1", []acpv2.ContentBlock{acpv2.NewContentBlockText("secret prompt")})); err != nil {
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
