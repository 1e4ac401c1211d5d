package acphttp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// askingAgent asks permission in its turn and again once session/cancel
// has come (a late request), and ends the turn cancelled once both are
// answered, with the outcomes it got.
type askingAgent struct {
	conn      *acpv1.AgentSideConnection
	mu        sync.Mutex
	outcomes  []string
	cancelled chan struct{}
	late      chan struct{}
}

func (a *askingAgent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return acpv1.NewInitializeResponse(1), nil
}

func (a *askingAgent) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return acpv1.NewNewSessionResponse("s1"), nil
}

func (a *askingAgent) ask(ctx context.Context, id acpv1.SessionID) {
	res, err := a.conn.RequestPermission(ctx, acpv1.NewRequestPermissionRequest(id,
		acpv1.ToolCallUpdate{ToolCallID: "c1"}, []acpv1.PermissionOption{{OptionID: "allow", Name: "Allow", Kind: acpv1.PermissionOptionKindAllowOnce}}))
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case err != nil:
		a.outcomes = append(a.outcomes, err.Error())
	default:
		_, cancelled := res.Outcome.Value.(*acpv1.RequestPermissionOutcomeCancelled)
		a.outcomes = append(a.outcomes, map[bool]string{true: "cancelled", false: "selected"}[cancelled])
	}
}

func (a *askingAgent) Cancel(ctx context.Context, p *acpv1.CancelNotification) error {
	close(a.cancelled)
	go func() {
		a.ask(context.WithoutCancel(ctx), p.SessionID)
		close(a.late)
	}()
	return nil
}

func (a *askingAgent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	a.ask(ctx, p.SessionID)
	<-a.cancelled
	<-a.late
	return acpv1.NewPromptResponse(acpv1.StopReasonCancelled), nil
}

// holdingRouted holds each permission request until its context ends.
type holdingRouted struct{ acpv1.SessionRouter }

func (c *holdingRouted) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestV1PromptCancelOverHTTP: over both profiles, cancelling the context
// of a v1 session's Prompt, or calling its Cancel (which returns the stop
// reason too), sends session/cancel, answers the pending and
// the late permission request cancelled, and returns the agent's stop
// reason, cancelled.
func TestV1PromptCancelOverHTTP(t *testing.T) {
	for _, tc := range []struct{ profile, how string }{{"http", "context"}, {"ws", "context"}, {"http", "Cancel"}, {"ws", "Cancel"}} {
		profile, how := tc.profile, tc.how
		t.Run(profile+"/"+how, func(t *testing.T) {
			agents := make(chan *askingAgent, 1)
			s := acphttp.NewServer(func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
				a := &askingAgent{cancelled: make(chan struct{}), late: make(chan struct{})}
				acpv1.NewAgentSideConnectionFunc(func(conn *acpv1.AgentSideConnection) acpv1.Agent {
					a.conn = conn
					return a
				}, out, in)
				agents <- a
				return a.conn, nil
			}, nil)
			url := profileURL(serveHandler(t, s), profile)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			tr, err := acphttp.Dial(ctx, url, nil)
			if err != nil {
				t.Fatal(err)
			}
			c := &holdingRouted{}
			conn := acpv1.NewClientSideConnection(c, tr, tr)
			defer conn.Close()
			if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
				t.Fatal(err)
			}
			sess, _, err := c.NewSession(ctx, conn, acpv1.NewNewSessionRequest("/", nil))
			if err != nil {
				t.Fatal(err)
			}
			a := <-agents
			pctx, pcancel := context.WithCancel(ctx)
			cancelled := make(chan string, 1)
			if how == "context" {
				time.AfterFunc(100*time.Millisecond, pcancel)
				cancelled <- "cancelled <nil>"
			} else {
				defer pcancel()
				time.AfterFunc(100*time.Millisecond, func() {
					stop, err := sess.Cancel(ctx)
					cancelled <- fmt.Sprint(stop, " ", err)
				})
			}
			res, err := sess.Prompt(pctx, []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")})
			if err != nil || res.StopReason != acpv1.StopReasonCancelled {
				t.Fatalf("Prompt: %+v, %v; want stop reason cancelled", res, err)
			}
			if got := <-cancelled; got != "cancelled <nil>" {
				t.Errorf("Cancel: %s, want the stop reason cancelled", got)
			}
			a.mu.Lock()
			defer a.mu.Unlock()
			if len(a.outcomes) != 2 || a.outcomes[0] != "cancelled" || a.outcomes[1] != "cancelled" {
				t.Errorf("the agent's permission requests got %q, want both cancelled", a.outcomes)
			}
		})
	}
}
