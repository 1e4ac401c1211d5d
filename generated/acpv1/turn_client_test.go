package acpv1

import (
	"context"
	"io"
	"testing"
	"time"
)

// blockingClient routes session updates and holds each permission request
// until its context ends.
type blockingClient struct {
	SessionRouter
	asked chan struct{}
}

func (c *blockingClient) RequestPermission(ctx context.Context, p *RequestPermissionRequest) (*RequestPermissionResponse, error) {
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
	agent := NewAgentSideConnectionFunc(func(c *AgentSideConnection) Agent {
		return &turnAgent{TurnRunner: NewTurnRunner(c, func(ctx context.Context, turn *Turn) error {
			res, err := turn.RequestPermission(ctx, NewRequestPermissionRequest(turn.SessionID(),
				ToolCallUpdate{ToolCallID: "call_1"}, []PermissionOption{{OptionID: "allow", Name: "Allow", Kind: PermissionOptionKindAllowOnce}}))
			if err != nil {
				return err
			}
			_, cancelled := res.Outcome.Value.(*RequestPermissionOutcomeCancelled)
			if !cancelled {
				return turn.Say(ctx, "not cancelled")
			}
			return turn.Say(context.WithoutCancel(ctx), "permission: cancelled")
		}, nil)}
	}, agentOut, agentIn)
	c := &blockingClient{asked: make(chan struct{}, 1)}
	conn := NewClientSideConnection(c, clientOut, clientIn)
	defer func() { clientOut.Close(); <-agent.Done(); conn.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := conn.Initialize(ctx, NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	s, _, err := c.NewSession(ctx, conn, NewNewSessionRequest("/", []MCPServer{}))
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		res *PromptResponse
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := s.Prompt(ctx, []ContentBlock{NewContentBlockText("hi")})
		done <- result{res, err}
	}()
	<-c.asked
	if err := s.Cancel(ctx); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || r.res.StopReason != StopReasonCancelled {
		t.Fatalf("the prompt: %+v, %v", r.res, r.err)
	}
	e, err := s.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if u, ok := e.Notification.Update.Value.(*SessionUpdateAgentMessageChunk); !ok || u.Content.Value.(*ContentBlockText).Text != "permission: cancelled" {
		t.Errorf("the turn said %+v", e.Notification.Update.Value)
	}
}
