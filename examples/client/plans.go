package main

import (
	"fmt"
	"sync"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// sessions holds the state of each session, fed with its updates.
var sessions = struct {
	sync.Mutex
	m map[acpv1.SessionID]*acpv1.SessionState
}{m: map[acpv1.SessionID]*acpv1.SessionState{}}

// printPlans applies a session update to the state of its session and
// prints one line for each plan it changed: "plan ID: items N",
// "plan ID: markdown", "plan ID: file URI" or "plan ID: removed".
func printPlans(n *acpv1.SessionNotification) {
	sessions.Lock()
	s := sessions.m[n.SessionID]
	if s == nil {
		s = acpv1.NewSessionState(n.SessionID)
		sessions.m[n.SessionID] = s
	}
	sessions.Unlock()
	for _, id := range s.Apply(n.Update).Plans {
		p, ok := s.Plan(id)
		switch {
		case !ok:
			fmt.Printf("plan %s: removed\n", id)
		case p.Kind == acpv1.PlanKindItems:
			fmt.Printf("plan %s: items %d\n", id, len(p.Entries))
		case p.Kind == acpv1.PlanKindFile:
			fmt.Printf("plan %s: file %s\n", id, p.URI)
		default:
			fmt.Printf("plan %s: %s\n", id, p.Kind)
		}
	}
}
