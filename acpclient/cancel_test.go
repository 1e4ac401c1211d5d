package acpclient

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// slowAgent asks permission in each turn, twice: once before session/cancel,
// once after it, and ends the turn cancelled once cancelled.
type slowAgent struct {
	agent
	conn      *acpv1.AgentSideConnection
	cancelled chan struct{}
	outcomes  chan string
}

func (a *slowAgent) Cancel(ctx context.Context, p *acpv1.CancelNotification) error {
	close(a.cancelled)
	return nil
}

func (a *slowAgent) ask(ctx context.Context, id acpv1.SessionID) {
	r, err := a.conn.RequestPermission(ctx, acpv1.NewRequestPermissionRequest(id, acpv1.ToolCallUpdate{ToolCallID: "c1"},
		[]acpv1.PermissionOption{{OptionID: "allow", Name: "Allow", Kind: acpv1.PermissionOptionKindAllowOnce}}))
	if err != nil {
		a.outcomes <- "error: " + err.Error()
		return
	}
	a.outcomes <- r.Outcome.Tag()
}

func (a *slowAgent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	a.ask(ctx, p.SessionID) // pending when the client cancels
	<-a.cancelled
	a.ask(ctx, p.SessionID) // late
	return acpv1.NewPromptResponse(acpv1.StopReasonCancelled), nil
}

// person never answers a permission request until its context ends.
type person struct{}

func (person) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}
func (person) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error { return nil }

// TestTurnsCancel: ending Prompt's context sends session/cancel, the
// pending permission request and the late one are answered cancelled, and
// Prompt returns the agent's stop reason, cancelled, promptly.
func TestTurnsCancel(t *testing.T) {
	var turns Turns
	a := &slowAgent{cancelled: make(chan struct{}), outcomes: make(chan string, 2)}
	ar, cw := io.Pipe()
	cr, aw := io.Pipe()
	agentConn := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent { a.conn = c; return a }, aw, ar)
	conn := acpv1.NewClientSideConnection(person{}, cw, cr, acpv1.WithMiddleware(turns.Middleware()))
	t.Cleanup(func() { conn.Close(); agentConn.Close(); <-conn.Done(); <-agentConn.Done() })
	ctx := context.Background()
	if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	turn, cancel := context.WithCancel(ctx)
	go func() {
		time.Sleep(100 * time.Millisecond) // the permission request is pending
		cancel()
	}()
	start := time.Now()
	r, err := turns.Prompt(turn, conn, acpv1.NewPromptRequest("sess-1", []acpv1.ContentBlock{acpv1.NewContentBlockText("go")}))
	if err != nil || r.StopReason != acpv1.StopReasonCancelled {
		t.Fatalf("Prompt: %+v, %v", r, err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("the cancelled turn took %v", took)
	}
	for _, which := range []string{"pending", "late"} {
		if got := <-a.outcomes; got != "cancelled" {
			t.Errorf("the %s permission request was answered %q", which, got)
		}
	}
}
