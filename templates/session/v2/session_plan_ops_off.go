//go:build ignore

package acp

import (
	"context"
	"fmt"
)

// applyPlanOperations records nothing: without the plan operations a
// plan_removed session update is an unknown one.
func (s *SessionState) applyPlanOperations(v SessionUpdateVariant) SessionChange {
	return SessionChange{}
}

// planFromTaggedContent is never called: without the plan operations,
// markdown and file plans are unknown contents, kept raw.
func planFromTaggedContent(v PlanUpdateContentVariant) PlanState { return PlanState{} }

// taggedContentOf refuses markdown and file plans, which need the plan
// operations.
func taggedContentOf(p PlanState) (PlanUpdateContent, error) {
	return PlanUpdateContent{}, fmt.Errorf("a %s plan needs unstable_plan_operations: %w", p.Kind, ErrPlanNotRepresentable)
}

// sendPlanRemoved refuses: removing a plan needs the plan operations.
func (c *AgentSideConnection) sendPlanRemoved(ctx context.Context, id SessionID, planID string) error {
	return fmt.Errorf("removing plan %q needs unstable_plan_operations: %w", planID, ErrPlanNotRepresentable)
}
