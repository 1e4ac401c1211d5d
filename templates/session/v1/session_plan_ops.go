//go:build ignore

package acp

import (
	"context"
	"fmt"
)

// advertisesPlan reports whether client capabilities c advertise the plan
// operations.
func advertisesPlan(c *ClientCapabilities) bool { return c.Plan != nil }

// applyPlanOperations records a plan_update or plan_removed session update.
func (s *SessionState) applyPlanOperations(v SessionUpdateVariant) SessionChange {
	switch v := v.(type) {
	case *SessionUpdatePlanUpdate:
		p := planFromContent(v.Plan)
		s.plans.put(p.ID, &p)
		return SessionChange{Plans: []string{p.ID}}
	case *SessionUpdatePlanRemoved:
		if s.plans.remove(string(v.PlanID)) {
			return SessionChange{Plans: []string{string(v.PlanID)}}
		}
	}
	return SessionChange{}
}

// planFromContent is the state of a plan_update's plan.
func planFromContent(c PlanUpdateContent) PlanState {
	switch v := c.Value.(type) {
	case *PlanUpdateContentItems:
		return planFromItems(string(v.PlanID), v.Entries, v.Meta)
	case *PlanUpdateContentMarkdown:
		return PlanState{ID: string(v.PlanID), Kind: PlanKindMarkdown, Content: v.Content, Meta: copyRaw(v.Meta)}
	case *PlanUpdateContentFile:
		return PlanState{ID: string(v.PlanID), Kind: PlanKindFile, URI: v.URI, Meta: copyRaw(v.Meta)}
	case *PlanUpdateContentOther:
		return PlanState{ID: rawPlanID(v.Raw), Kind: PlanKind(v.Tag), Raw: copyRaw(v.Raw)}
	}
	return PlanState{}
}

// contentOf is the plan_update content of p.
func contentOf(p PlanState) (PlanUpdateContent, error) {
	id := PlanID(p.ID)
	switch p.Kind {
	case PlanKindItems:
		c := NewPlanUpdateContentItems(id, p.Entries)
		c.Value.(*PlanUpdateContentItems).Meta = p.Meta
		return c, nil
	case PlanKindMarkdown:
		c := NewPlanUpdateContentMarkdown(id, p.Content)
		c.Value.(*PlanUpdateContentMarkdown).Meta = p.Meta
		return c, nil
	case PlanKindFile:
		c := NewPlanUpdateContentFile(id, p.URI)
		c.Value.(*PlanUpdateContentFile).Meta = p.Meta
		return c, nil
	}
	if p.Raw == nil {
		return PlanUpdateContent{}, fmt.Errorf("a %q plan without its raw content: %w", p.Kind, ErrPlanNotRepresentable)
	}
	return PlanUpdateContent{Value: &PlanUpdateContentOther{Tag: string(p.Kind), Raw: p.Raw}}, nil
}

// sendPlanUpdate sends p with plan_update.
func (c *AgentSideConnection) sendPlanUpdate(ctx context.Context, id SessionID, p PlanState) error {
	content, err := contentOf(p)
	if err != nil {
		return err
	}
	return c.SessionUpdate(ctx, NewSessionNotification(id, NewSessionUpdatePlanUpdate(content)))
}

// sendPlanRemoved sends plan_removed for plan planID.
func (c *AgentSideConnection) sendPlanRemoved(ctx context.Context, id SessionID, planID string) error {
	return c.SessionUpdate(ctx, NewSessionNotification(id, NewSessionUpdatePlanRemoved(PlanID(planID))))
}
