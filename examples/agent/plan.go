package main

import (
	"context"
	"errors"
	"strings"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// plan answers a text block "/plan A; B; …" with a plan of the entries A,
// B, … (the plan "main"), then, to a client that reads plan operations, a
// markdown plan "notes" of the same entries, which it removes at once.
// For any other client AgentSideConnection leaves the markdown plan and
// its removal out (ErrPlanNotRepresentable), as the plan operations say.
func (a *agent) plan(ctx context.Context, id acpv1.SessionID, text string) error {
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
	if err := a.conn.SendPlan(ctx, id, acpv1.PlanState{ID: acpv1.PlanIDMain, Kind: acpv1.PlanKindItems, Entries: entries}); err != nil {
		return err
	}
	err := a.conn.SendPlan(ctx, id, acpv1.PlanState{ID: "notes", Kind: acpv1.PlanKindMarkdown, Content: markdown})
	if err == nil {
		err = a.conn.RemovePlan(ctx, id, "notes")
	}
	if errors.Is(err, acpv1.ErrPlanNotRepresentable) {
		return nil
	}
	return err
}
