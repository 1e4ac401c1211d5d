package main

import (
	"context"
	"errors"
	"strings"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// plan answers a text block "/plan A; B; …" with a plan of the entries A,
// B, … (the turn's plan, which a session/load replays), then, to a client
// that reads plan operations, a markdown plan "notes" of the same entries,
// which it removes at once. For any other client AgentSideConnection
// leaves the markdown plan and its removal out (ErrPlanNotRepresentable),
// as the plan operations say.
func plan(ctx context.Context, c *acpv1.AgentSideConnection, t *acpv1.Turn, text string) error {
	rest, ok := strings.CutPrefix(text, "/plan ")
	if !ok {
		return nil
	}
	var entries []acpv1.PlanEntry
	markdown := ""
	for _, item := range strings.Split(rest, ";") {
		item = strings.TrimSpace(item)
		entries = append(entries, acpv1.PlanEntry{Content: item,
			Priority: acpv1.PlanEntryPriorityMedium, Status: acpv1.PlanEntryStatusPending})
		markdown += "- " + item + "\n"
	}
	if err := t.Plan(ctx, entries); err != nil {
		return err
	}
	err := c.SendPlan(ctx, t.SessionID(), acpv1.PlanState{ID: "notes", Kind: acpv1.PlanKindMarkdown, Content: markdown})
	if err == nil {
		err = c.RemovePlan(ctx, t.SessionID(), "notes")
	}
	if errors.Is(err, acpv1.ErrPlanNotRepresentable) {
		return nil
	}
	return err
}
