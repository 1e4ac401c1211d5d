package acpv1test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// blockingClient routes session updates and holds each permission request
// until its context ends.
type blockingClient struct {
	acpv1.SessionRouter
	asked chan struct{}
}

func (c *blockingClient) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	c.asked <- struct{}{}
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestActiveSessionCancel: the client's Cancel sends session/cancel and
// answers the pending permission request cancelled; the runner's turn
// reads the cancelled outcome and the prompt ends cancelled.
func TestActiveSessionCancel(t *testing.T) {
	clientIn, agentOut := io.Pipe()
	agentIn, clientOut := io.Pipe()
	agent := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
		return &turnAgent{TurnRunner: acpv1.NewTurnRunner(c, func(ctx context.Context, turn *acpv1.Turn) error {
			res, err := turn.RequestPermission(ctx, acpv1.NewRequestPermissionRequest(turn.SessionID(),
				acpv1.ToolCallUpdate{ToolCallID: "call_1"}, []acpv1.PermissionOption{{OptionID: "allow", Name: "Allow", Kind: acpv1.PermissionOptionKindAllowOnce}}))
			if err != nil {
				return err
			}
			_, cancelled := res.Outcome.Value.(*acpv1.RequestPermissionOutcomeCancelled)
			if !cancelled {
				return turn.Say(ctx, "not cancelled")
			}
			return turn.Say(context.WithoutCancel(ctx), "permission: cancelled")
		}, nil)}
	}, agentOut, agentIn)
	c := &blockingClient{asked: make(chan struct{}, 1)}
	conn := acpv1.NewClientSideConnection(c, clientOut, clientIn)
	defer func() { clientOut.Close(); <-agent.Done(); conn.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	s, _, err := c.NewSession(ctx, conn, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		res *acpv1.PromptResponse
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := s.Prompt(ctx, []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")})
		done <- result{res, err}
	}()
	<-c.asked
	if stop, err := s.Cancel(ctx); err != nil || stop != acpv1.StopReasonCancelled {
		t.Fatalf("Cancel: %q, %v; want the stop reason cancelled", stop, err)
	}
	r := <-done
	if r.err != nil || r.res.StopReason != acpv1.StopReasonCancelled {
		t.Fatalf("the prompt: %+v, %v", r.res, r.err)
	}
	e, err := s.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if u, ok := e.Notification.Update.Value.(*acpv1.SessionUpdateAgentMessageChunk); !ok || u.Content.Value.(*acpv1.ContentBlockText).Text != "permission: cancelled" {
		t.Errorf("the turn said %+v", e.Notification.Update.Value)
	}
}
