package main

import (
	"context"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// agentV2 is the v2 echo agent. acpv2.TurnRunner runs its prompt turns in
// v2's prompt lifecycle (the prompt answered at once with the user
// message's id, then user_message, running, the turn, requires_action while
// it asks for permission, and the idle update with the stop reason) and
// serves its sessions (session/new, list, resume with the replay of the
// conversation, close): the agent is its Initialize and its turn,
// echoTurnV2.
type agentV2 struct {
	*acpv2.TurnRunner
}

// newAgentV2 returns the v2 agent of connection c.
func newAgentV2(c *acpv2.AgentSideConnection) *agentV2 {
	return &agentV2{acpv2.NewTurnRunner(c, echoTurnV2, &acpv2.TurnOptions{Store: storeV2})}
}

// Initialize advertises capabilities.session, which the embedded
// TurnRunner serves (agentV2 is an acpv2.SessionAgent).
func (a *agentV2) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	r := acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "acpgen-example-agent", Version: "1.0.0"})
	r.Capabilities = &acpv2.AgentCapabilities{Session: &acpv2.SessionCapabilities{}}
	r.AuthMethods = []acpv2.AuthMethod{}
	return r, nil
}

// echoTurnV2 runs one prompt turn: the echo of each text block (and a plan
// after a block "plan"), then the permission request and its answer. A
// cancelled turn ends after the echo, or with the cancelled outcome of
// the permission request it waits on.
func echoTurnV2(ctx context.Context, t *acpv2.Turn) error {
	for _, block := range t.Request().Prompt {
		text, ok := block.Value.(*acpv2.ContentBlockText)
		if !ok {
			continue
		}
		if err := t.Say(ctx, text.Text); err != nil {
			return err
		}
		if text.Text == "plan" {
			if err := t.Update(ctx, acpv2.NewSessionUpdatePlanUpdate(acpv2.NewPlanUpdateContentItems("main", []acpv2.PlanEntry{
				{Content: "echo the prompt", Priority: acpv2.PlanEntryPriorityMedium, Status: acpv2.PlanEntryStatusInProgress}}))); err != nil {
				return err
			}
		}
	}
	if t.Cancelled() {
		return nil
	}
	answer, err := t.RequestPermission(ctx, acpv2.NewRequestPermissionRequest(t.SessionID(), "echo", []acpv2.PermissionOption{
		{OptionID: "allow", Name: "Allow", Kind: acpv2.PermissionOptionKindAllowOnce},
		{OptionID: "reject", Name: "Reject", Kind: acpv2.PermissionOptionKindRejectOnce},
	}))
	if err != nil {
		return err
	}
	outcome := "cancelled"
	if s, ok := answer.Outcome.Value.(*acpv2.RequestPermissionOutcomeSelected); ok {
		outcome = string(s.OptionID)
	}
	// The turn's last words go out after a cancellation too.
	return t.Say(context.WithoutCancel(ctx), "permission: "+outcome)
}
