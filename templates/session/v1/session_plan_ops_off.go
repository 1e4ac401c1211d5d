//go:build ignore

package acp

import "context"

// advertisesPlan reports whether client capabilities c advertise the plan
// operations: without them compiled in, the capability cannot be read.
func advertisesPlan(c *ClientCapabilities) bool { return false }

// applyPlanOperations records nothing: without the plan operations their
// session updates are unknown ones.
func (s *SessionState) applyPlanOperations(v SessionUpdateVariant) SessionChange {
	return SessionChange{}
}

// sendPlanUpdate is never called: no client advertises plan operations.
func (c *AgentSideConnection) sendPlanUpdate(ctx context.Context, id SessionID, p PlanState) error {
	return ErrPlanNotRepresentable
}

// sendPlanRemoved is never called: no client advertises plan operations.
func (c *AgentSideConnection) sendPlanRemoved(ctx context.Context, id SessionID, planID string) error {
	return ErrPlanNotRepresentable
}
