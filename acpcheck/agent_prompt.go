package acpcheck

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

var v1StopReasons = []string{"end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"}

// checkPromptV1 runs a v1 turn to its end, then cancellation, then judges
// the plans the agent sent to a client without the plan capability.
func (c *agentConn) checkPromptV1() {
	s, problem := c.newSession()
	if problem != "" {
		c.fail(AgentPromptV1StopReason, "%s", problem)
		c.checkLoadReplay(nil)
		return
	}
	t, err := c.startTurn(s.SessionID)
	if err == nil {
		err = c.wait(t, false)
	}
	switch {
	case err != nil:
		c.fail(AgentPromptV1StopReason, "session/prompt: %v", err)
	case t.resp.Error != nil:
		c.fail(AgentPromptV1StopReason, "session/prompt answered %s", errText(t.resp, nil))
	case !slices.Contains(v1StopReasons, t.stop):
		c.fail(AgentPromptV1StopReason, "stopReason %q is none of %s", t.stop, strings.Join(v1StopReasons, ", "))
	default:
		c.pass(AgentPromptV1StopReason, "stopReason %s", t.stop)
	}
	if err == nil {
		c.drain(300 * time.Millisecond)
		if late := c.updatesFor(t.sid, t.end); len(late) > 0 {
			c.fail(AgentPromptV1UpdatesInTurn, "%d updates after the answer to session/prompt, first %s", len(late), late[0].Kind)
		} else {
			c.pass(AgentPromptV1UpdatesInTurn, "no update after the answer")
		}
	}
	if err == nil {
		c.checkLoadReplay(t)
	} else {
		c.checkLoadReplay(nil)
	}
	c.cancelTurn()
	c.judgePlansV1(false)
}

// checkPlanOperationsV1 opens a v1 connection whose client advertises the
// plan capability and notes which plan updates the agent sends it.
func (c *agentConn) checkPlanOperationsV1() {
	conn, err := c.reopen()
	if err != nil {
		c.verdict(AgentPlanV1Operations, NotExercised, "%v", err)
		return
	}
	defer conn.finishQuiet()
	if _, ok := conn.initialize(1, map[string]any{"plan": map[string]any{}}); !ok {
		c.verdict(AgentPlanV1Operations, NotExercised, "initialize with the plan capability failed")
		return
	}
	s, problem := conn.newSession()
	if problem != "" {
		c.verdict(AgentPlanV1Operations, NotExercised, "%s", problem)
		return
	}
	t, err := conn.startTurn(s.SessionID)
	if err == nil {
		err = conn.wait(t, false)
	}
	if err != nil {
		c.verdict(AgentPlanV1Operations, NotExercised, "the turn did not end: %v", err)
		return
	}
	kinds := map[string]int{}
	for _, u := range conn.updatesFor(s.SessionID, 0) {
		if strings.HasPrefix(u.Kind, "plan") {
			kinds[u.Kind]++
		}
	}
	c.pass(AgentPlanV1Operations, "to a client with the plan capability: %s", countText(kinds))
	c.schemaProblems = append(c.schemaProblems, conn.schemaProblems...)
	c.decodeProblems = append(c.decodeProblems, conn.decodeProblems...)
	c.unstable = append(c.unstable, conn.unstable...)
}

func countText(m map[string]int) string {
	if len(m) == 0 {
		return "no plan updates"
	}
	var parts []string
	for k, n := range m {
		parts = append(parts, fmt.Sprintf("%d %s", n, k))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

// judgePlansV1 judges the plan rules over every update of the connection.
func (c *agentConn) judgePlansV1(planCapability bool) {
	var plans, ops int
	var incomplete []string
	for _, m := range c.updates {
		u := updateOf(m)
		switch u.Kind {
		case "plan":
			plans++
			incomplete = append(incomplete, entryProblems(u.Body)...)
		case "plan_update", "plan_removed":
			ops++
		}
	}
	switch {
	case ops > 0 && !planCapability:
		c.fail(AgentPlanV1Fallback, "%d plan_update or plan_removed sent to a client that did not advertise plan", ops)
	case plans == 0:
		c.verdict(AgentPlanV1Fallback, NotExercised, "the agent sent no plan")
	default:
		c.pass(AgentPlanV1Fallback, "%d plan updates, all in the v1 shape", plans)
	}
	c.judgeEntries(plans, incomplete)
}

func (c *agentConn) judgeEntries(plans int, incomplete []string) {
	switch {
	case plans == 0:
		c.verdict(AgentPlanEntriesComplete, NotExercised, "the agent sent no items plan")
	case len(incomplete) > 0:
		c.fail(AgentPlanEntriesComplete, "%s", strings.Join(incomplete, "; "))
	default:
		c.pass(AgentPlanEntriesComplete, "%d plans, every entry complete", plans)
	}
}

// entryProblems lists the entries of a plan body that lack a member.
func entryProblems(body []byte) []string {
	var p struct {
		Entries []map[string]json.RawMessage `json:"entries"`
	}
	_ = json.Unmarshal(body, &p)
	var out []string
	for i, e := range p.Entries {
		for _, k := range []string{"content", "priority", "status"} {
			if _, ok := e[k]; !ok {
				out = append(out, fmt.Sprintf("entry %d has no %s", i, k))
			}
		}
	}
	return out
}
