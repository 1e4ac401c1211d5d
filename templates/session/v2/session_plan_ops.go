//go:build ignore

package acp

import "context"

// applyPlanOperations records a plan_removed session update.
func (s *SessionState) applyPlanOperations(v SessionUpdateVariant) SessionChange {
	if v, ok := v.(*SessionUpdatePlanRemoved); ok && s.plans.remove(string(v.PlanID)) {
		return SessionChange{Plans: []string{string(v.PlanID)}}
	}
	return SessionChange{}
}

// planFromTaggedContent is the state of a markdown or file plan.
func planFromTaggedContent(v PlanUpdateContentVariant) PlanState {
	switch v := v.(type) {
	case *PlanUpdateContentMarkdown:
		return PlanState{ID: string(v.PlanID), Kind: PlanKindMarkdown, Content: v.Content, Meta: copyRaw(v.Meta)}
	case *PlanUpdateContentFile:
		return PlanState{ID: string(v.PlanID), Kind: PlanKindFile, URI: v.URI, Meta: copyRaw(v.Meta)}
	}
	return PlanState{}
}

// taggedContentOf is the plan_update content of a markdown or file plan.
func taggedContentOf(p PlanState) (PlanUpdateContent, error) {
	if p.Kind == PlanKindFile {
		c := NewPlanUpdateContentFile(PlanID(p.ID), p.URI)
		c.Value.(*PlanUpdateContentFile).Meta = p.Meta
		return c, nil
	}
	c := NewPlanUpdateContentMarkdown(PlanID(p.ID), p.Content)
	c.Value.(*PlanUpdateContentMarkdown).Meta = p.Meta
	return c, nil
}

// sendPlanRemoved sends plan_removed for plan planID.
func (c *AgentSideConnection) sendPlanRemoved(ctx context.Context, id SessionID, planID string) error {
	return c.UpdateSession(ctx, NewUpdateSessionNotification(id, NewSessionUpdatePlanRemoved(PlanID(planID))))
}
