package acpcheck

import (
	"encoding/json"
	"strings"
)

// checkLoadReplay loads, on the same connection, the session of a v1
// turn that has ended, where the agent advertised loadSession: the agent
// must replay the conversation as session/update notifications before it
// answers, among them the prompt's text as user_message_chunk updates and,
// when the turn had any, its agent_message_chunk updates.
func (c *agentConn) checkLoadReplay(t *turn) {
	const req = AgentSessionLoadReplay
	if !c.advertised()["load"] {
		c.verdict(req, NotApplicable, "loadSession not advertised")
		return
	}
	if t == nil || !t.ended || t.resp == nil || t.resp.Error != nil {
		c.verdict(req, NotExercised, "no prompt turn ended with a result")
		return
	}
	hadAgentText := false
	for _, m := range c.updates[min(t.start, t.end, len(c.updates)):min(t.end, len(c.updates))] {
		u := updateOf(m)
		hadAgentText = hadAgentText || u.SessionID == t.sid && u.Kind == "agent_message_chunk"
	}
	before := len(c.updates)
	res, err := c.call("session/load", map[string]any{"sessionId": t.sid, "cwd": c.opts.Cwd, "mcpServers": []any{}})
	if err != nil || res.Error != nil {
		c.fail(req, "session/load of %s after its turn: %s", t.sid, errText(res, err))
		return
	}
	var user strings.Builder
	agentText := false
	replayed := c.updatesFor(t.sid, before)
	for _, u := range replayed {
		agentText = agentText || u.Kind == "agent_message_chunk"
		if u.Kind == "user_message_chunk" {
			user.WriteString(chunkText(u.Body))
		}
	}
	var missing []string
	for _, text := range c.opts.Prompt {
		if !strings.Contains(user.String(), text) {
			missing = append(missing, text)
		}
	}
	switch {
	case len(replayed) == 0:
		c.fail(req, "session/load of %s answered with no session/update before it: the conversation was not replayed", t.sid)
	case len(missing) > 0:
		c.fail(req, "the replay before the answer to session/load holds no user_message_chunk with the prompt's text %q", missing[0])
	case hadAgentText && !agentText:
		c.fail(req, "the replay before the answer to session/load holds no agent_message_chunk, though the turn had some")
	default:
		c.pass(req, "%d updates replayed before the answer, the prompt's text among them", len(replayed))
	}
}

// chunkText is the text of a message chunk update's content block.
func chunkText(body json.RawMessage) string {
	var u struct {
		Content struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	_ = json.Unmarshal(body, &u)
	return u.Content.Text
}
