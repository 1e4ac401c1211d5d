package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// agentV2 is the v2 echo agent. v2's prompt turn outlives its request:
// session/prompt is answered as soon as the prompt is accepted, with the
// user message's id, and the turn goes on on a goroutine of its own, which
// ends with an idle state update.
type agentV2 struct {
	conn *acpv2.AgentSideConnection
	ctx  context.Context // ends with the connection: the turns' context

	turns sync.WaitGroup // the running turns, waited for when the connection ends

	mu        sync.Mutex
	sessions  int
	messages  int
	cancelled map[acpv2.SessionID]bool // sessions whose running turn was cancelled
}

func (a *agentV2) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	r := acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "acpgen-example-agent", Version: "1.0.0"})
	r.AuthMethods = []acpv2.AuthMethod{}
	return r, nil
}

func (a *agentV2) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sessions++
	return acpv2.NewNewSessionResponse(acpv2.SessionID(fmt.Sprintf("sess_%d", a.sessions))), nil
}

func (a *agentV2) CancelSession(ctx context.Context, p *acpv2.CancelSessionNotification) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.cancelled[p.SessionID]; ok {
		a.cancelled[p.SessionID] = true
	}
	return nil
}

// Prompt accepts the prompt and starts its turn. The turn waits for the
// request's context to end, which happens once the answer is written, so
// that the client sees the answer before the turn's updates.
func (a *agentV2) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	a.mu.Lock()
	if _, running := a.cancelled[p.SessionID]; running {
		a.mu.Unlock()
		return nil, acpv2.NewInvalidParamsError(map[string]string{"details": "a turn is running in this session"})
	}
	a.cancelled[p.SessionID] = false
	a.messages++
	user := acpv2.MessageID(fmt.Sprintf("msg_%d", a.messages))
	agent := acpv2.MessageID(fmt.Sprintf("msg_%d_reply", a.messages))
	a.mu.Unlock()
	a.turns.Add(1)
	go func() {
		defer a.turns.Done()
		<-ctx.Done()
		a.turn(p, agent)
	}()
	return acpv2.NewPromptResponse(user), nil
}

// turn runs a prompt turn: the echo, the permission request and its answer,
// and the idle state update that ends it. It stops early when the
// connection ends.
func (a *agentV2) turn(p *acpv2.PromptRequest, reply acpv2.MessageID) {
	defer func() {
		a.mu.Lock()
		delete(a.cancelled, p.SessionID)
		a.mu.Unlock()
	}()
	ctx := a.ctx
	for _, block := range p.Prompt {
		if t, ok := block.Value.(*acpv2.ContentBlockText); ok {
			if a.say(ctx, p.SessionID, reply, t.Text) != nil {
				return
			}
			if t.Text == "plan" && a.plan(ctx, p.SessionID) != nil {
				return
			}
		}
	}
	if a.isCancelled(p.SessionID) {
		a.idle(ctx, p.SessionID, acpv2.NewIdleStateUpdateCancelled())
		return
	}
	answer, err := a.conn.RequestPermission(ctx, acpv2.NewRequestPermissionRequest(p.SessionID, "echo",
		[]acpv2.PermissionOption{
			{OptionID: "allow", Name: "Allow", Kind: acpv2.PermissionOptionKindAllowOnce},
			{OptionID: "reject", Name: "Reject", Kind: acpv2.PermissionOptionKindRejectOnce},
		}))
	if err != nil {
		if ctx.Err() == nil {
			a.idle(ctx, p.SessionID, acpv2.NewIdleStateUpdateError())
		}
		return
	}
	outcome := "cancelled"
	if s, ok := answer.Outcome.Value.(*acpv2.RequestPermissionOutcomeSelected); ok {
		outcome = string(s.OptionID)
	}
	if a.say(ctx, p.SessionID, reply, "permission: "+outcome) != nil {
		return
	}
	if a.isCancelled(p.SessionID) {
		a.idle(ctx, p.SessionID, acpv2.NewIdleStateUpdateCancelled())
		return
	}
	a.idle(ctx, p.SessionID, acpv2.NewIdleStateUpdateEndTurn())
}

// say sends text to the client as a chunk of the agent message reply.
func (a *agentV2) say(ctx context.Context, id acpv2.SessionID, reply acpv2.MessageID, text string) error {
	return a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(id,
		acpv2.NewSessionUpdateAgentMessageChunk(reply, acpv2.NewContentBlockText(text))))
}

// plan sends the plan of the echo: one step, in progress.
func (a *agentV2) plan(ctx context.Context, id acpv2.SessionID) error {
	return a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(id,
		acpv2.NewSessionUpdatePlanUpdate(acpv2.NewPlanUpdateContentItems("main", []acpv2.PlanEntry{
			{Content: "echo the prompt", Priority: acpv2.PlanEntryPriorityMedium, Status: acpv2.PlanEntryStatusInProgress}}))))
}

// idle ends a turn with an idle state update carrying its stop reason.
func (a *agentV2) idle(ctx context.Context, id acpv2.SessionID, stop acpv2.IdleStateUpdate) {
	update := acpv2.SessionUpdate{Value: &acpv2.SessionUpdateStateUpdate{
		StateUpdate: acpv2.StateUpdate{Value: &acpv2.StateUpdateIdle{IdleStateUpdate: stop}}}}
	_ = a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(id, update))
}

func (a *agentV2) isCancelled(id acpv2.SessionID) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cancelled[id]
}
