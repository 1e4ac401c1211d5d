package acpcheck

import (
	"encoding/json"
	"slices"
	"strings"
)

// checkPromptV2 runs a v2 turn to its idle end and judges its lifecycle,
// then cancellation and the plans.
func (c *agentConn) checkPromptV2() {
	s, problem := c.newSession()
	if problem != "" {
		c.fail(AgentPromptV2MessageID, "%s", problem)
		return
	}
	t, err := c.startTurn(s.SessionID)
	if err == nil {
		err = c.wait(t, false)
	}
	switch {
	case t.resp == nil:
		c.fail(AgentPromptV2MessageID, "session/prompt was not answered: %v", err)
		return
	case t.resp.Error != nil:
		c.fail(AgentPromptV2MessageID, "session/prompt answered %s", errText(t.resp, nil))
		return
	case t.messageID == "":
		c.fail(AgentPromptV2MessageID, "the answer to session/prompt has no messageId")
	default:
		c.pass(AgentPromptV2MessageID, "messageId %s", t.messageID)
	}
	c.judgeLifecycle(t, err)
	c.cancelTurn()
	c.judgePlansV2()
}

// judgeLifecycle judges the updates of a v2 turn.
func (c *agentConn) judgeLifecycle(t *turn, err error) {
	updates := c.updatesFor(t.sid, t.start)
	userMessage := false
	for _, u := range updates {
		if u.Kind != "user_message" && u.Kind != "user_message_chunk" {
			continue
		}
		var m struct {
			MessageID string `json:"messageId"`
		}
		_ = json.Unmarshal(u.Body, &m)
		userMessage = userMessage || (m.MessageID != "" && m.MessageID == t.messageID)
	}
	if userMessage {
		c.pass(AgentPromptV2UserMessage, "user message %s reported", t.messageID)
	} else {
		c.fail(AgentPromptV2UserMessage, "no user_message or user_message_chunk with messageId %q", t.messageID)
	}
	running := slices.Index(t.states, "running")
	idle := slices.Index(t.states, "idle")
	early := outputBeforeState(updates)
	switch {
	case err != nil:
		c.fail(AgentPromptV2RunningIdle, "the turn did not go idle: %v (states seen: %s)", err, strings.Join(t.states, ", "))
	case running < 0 || running > idle:
		c.fail(AgentPromptV2RunningIdle, "no running state before idle (states: %s)", strings.Join(t.states, ", "))
	case early != "":
		c.fail(AgentPromptV2RunningIdle, "%s sent before any running or requires_action state", early)
	case t.stop == "":
		c.fail(AgentPromptV2RunningIdle, "the idle state update carries no stopReason")
	default:
		c.pass(AgentPromptV2RunningIdle, "running, then idle with stopReason %s", t.stop)
	}
	switch {
	case t.asked == 0:
		c.verdict(AgentPromptV2RequiresAction, NotExercised, "the turn asked no permission")
	case slices.Contains(t.states, "requires_action"):
		c.pass(AgentPromptV2RequiresAction, "requires_action reported around the permission request")
	default:
		c.fail(AgentPromptV2RequiresAction, "a permission request without requires_action (states: %s)", strings.Join(t.states, ", "))
	}
}

// judgePlansV2 judges the plan rules of v2 over every update.
func (c *agentConn) judgePlansV2() {
	var v1Plans, updates int
	var noID, incomplete []string
	for _, m := range c.updates {
		u := updateOf(m)
		switch u.Kind {
		case "plan":
			v1Plans++
		case "plan_update":
			updates++
			var p struct {
				Plan struct {
					Type   string `json:"type"`
					PlanID string `json:"planId"`
				} `json:"plan"`
			}
			_ = json.Unmarshal(u.Body, &p)
			if p.Plan.PlanID == "" {
				noID = append(noID, "a "+p.Plan.Type+" plan_update without planId")
			}
			if p.Plan.Type == "items" {
				var items struct {
					Plan json.RawMessage `json:"plan"`
				}
				_ = json.Unmarshal(u.Body, &items)
				incomplete = append(incomplete, entryProblems(items.Plan)...)
			}
		}
	}
	if v1Plans > 0 {
		c.fail(AgentPlanV2NoV1Plan, "%d v1 plan updates sent in v2", v1Plans)
	} else if updates == 0 {
		c.verdict(AgentPlanV2NoV1Plan, NotExercised, "the agent sent no plan")
	} else {
		c.pass(AgentPlanV2NoV1Plan, "%d plan_update, no v1 plan", updates)
	}
	switch {
	case updates == 0:
		c.verdict(AgentPlanV2ID, NotExercised, "the agent sent no plan_update")
	case len(noID) > 0:
		c.fail(AgentPlanV2ID, "%s", strings.Join(noID, "; "))
	default:
		c.pass(AgentPlanV2ID, "%d plan_update, each with its planId", updates)
	}
	c.judgeEntries(updates, incomplete)
}

// outputBeforeState returns the kind of the first update of a turn that
// is the agent's work (not the user message, not a state) and comes before
// the turn's first state update, or "".
func outputBeforeState(updates []update) string {
	for _, u := range updates {
		switch u.Kind {
		case "state_update":
			return ""
		case "user_message", "user_message_chunk":
		default:
			return u.Kind
		}
	}
	return ""
}
