// Package workload generates a deterministic stream of ACP v1 session/update
// params: what an agent sends while it streams a turn.
package workload

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
)

// Kind is the session update variant of a message.
type Kind string

const (
	AgentMessageChunk Kind = "agent_message_chunk"
	AgentThoughtChunk Kind = "agent_thought_chunk"
	ToolCall          Kind = "tool_call"
	ToolCallUpdate    Kind = "tool_call_update"
	Plan              Kind = "plan"
)

// Message is one session/update params object.
type Message struct {
	Kind Kind
	JSON []byte
}

var words = strings.Fields(`the agent reads files and edits code while the client shows each
change to the user who approves tool calls runs tests and reviews the plan step by step until
the task is done with care for errors paths line numbers and diffs`)

func text(r *rand.Rand, min, max int) string {
	n := min + r.Intn(max-min+1)
	out := make([]string, n)
	for i := range out {
		out[i] = words[r.Intn(len(words))]
	}
	return strings.Join(out, " ")
}

// Stream returns n messages; the same n always gives the same bytes. The
// mix follows a streamed turn: mostly message chunks, some thoughts, tool
// calls with their updates, and the occasional plan.
func Stream(n int) []Message {
	r := rand.New(rand.NewSource(1))
	out := make([]Message, 0, n)
	calls := 0
	for len(out) < n {
		var kind Kind
		var update map[string]any
		switch p := r.Intn(100); {
		case p < 65:
			kind = AgentMessageChunk
			update = map[string]any{"content": map[string]any{"type": "text", "text": text(r, 1, 12)}}
		case p < 75:
			kind = AgentThoughtChunk
			update = map[string]any{"content": map[string]any{"type": "text", "text": text(r, 3, 20)}}
		case p < 85:
			calls++
			kind = ToolCall
			update = map[string]any{
				"toolCallId": fmt.Sprintf("call_%04d", calls),
				"title":      "Reading " + text(r, 1, 3),
				"kind":       []string{"read", "edit", "search", "execute"}[r.Intn(4)],
				"status":     "pending",
				"locations":  []any{map[string]any{"path": fmt.Sprintf("/home/user/project/src/file_%d.go", r.Intn(50)), "line": r.Intn(400) + 1}},
				"rawInput":   map[string]any{"path": "/home/user/project/src/main.go", "limit": 200},
			}
		case p < 97:
			kind = ToolCallUpdate
			content := map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": text(r, 5, 40)}}
			if r.Intn(3) == 0 {
				content = map[string]any{"type": "diff", "path": "/home/user/project/src/main.go",
					"oldText": text(r, 5, 30), "newText": text(r, 5, 30)}
			}
			update = map[string]any{
				"toolCallId": fmt.Sprintf("call_%04d", calls+1),
				"status":     []string{"in_progress", "completed", "failed"}[r.Intn(3)],
				"content":    []any{content},
			}
		default:
			kind = Plan
			var entries []any
			for i, k := 0, 3+r.Intn(5); i < k; i++ {
				entries = append(entries, map[string]any{
					"content":  text(r, 3, 10),
					"priority": []string{"high", "medium", "low"}[r.Intn(3)],
					"status":   []string{"pending", "in_progress", "completed"}[r.Intn(3)],
				})
			}
			update = map[string]any{"entries": entries}
		}
		update["sessionUpdate"] = string(kind)
		data, err := json.Marshal(map[string]any{"sessionId": "sess_abc123def456", "update": update})
		if err != nil {
			panic(err)
		}
		out = append(out, Message{Kind: kind, JSON: data})
	}
	return out
}

// Bytes is the total size of msgs.
func Bytes(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += len(m.JSON)
	}
	return n
}
