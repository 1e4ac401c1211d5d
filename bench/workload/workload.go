// Package workload generates a deterministic stream of ACP v1 session/update
// params: what an agent sends while it streams a turn. Members come in the
// order ACP implementations write them (and the spec's examples show):
// the discriminator first.
package workload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
)

// object is a JSON object whose members keep their order: key, value, ….
type object []any

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i := 0; i < len(o); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(o[i])
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(o[i+1])
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

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
	// Line is the whole JSON-RPC notification that carries JSON, as one
	// line of the stdio transport (without its newline).
	Line []byte
}

// Notification returns the session/update notification with params, as
// ACP implementations write it: "jsonrpc", "method", then "params".
func Notification(params []byte) []byte {
	const head = `{"jsonrpc":"2.0","method":"session/update","params":`
	line := make([]byte, 0, len(head)+len(params)+1)
	line = append(append(append(line, head...), params...), '}')
	return line
}

// LineBytes is the total size of the lines of msgs.
func LineBytes(msgs []Message) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Line)
	}
	return n
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
		var update object
		switch p := r.Intn(100); {
		case p < 65:
			kind = AgentMessageChunk
			update = object{"content", object{"type", "text", "text", text(r, 1, 12)}}
		case p < 75:
			kind = AgentThoughtChunk
			update = object{"content", object{"type", "text", "text", text(r, 3, 20)}}
		case p < 85:
			calls++
			kind = ToolCall
			update = object{
				"toolCallId", fmt.Sprintf("call_%04d", calls),
				"title", "Reading " + text(r, 1, 3),
				"kind", []string{"read", "edit", "search", "execute"}[r.Intn(4)],
				"status", "pending",
				"locations", []any{object{"path", fmt.Sprintf("/home/user/project/src/file_%d.go", r.Intn(50)), "line", r.Intn(400) + 1}},
				"rawInput", object{"path", "/home/user/project/src/main.go", "limit", 200},
			}
		case p < 97:
			kind = ToolCallUpdate
			content := object{"type", "content", "content", object{"type", "text", "text", text(r, 5, 40)}}
			if r.Intn(3) == 0 {
				content = object{"type", "diff", "path", "/home/user/project/src/main.go",
					"oldText", text(r, 5, 30), "newText", text(r, 5, 30)}
			}
			update = object{
				"toolCallId", fmt.Sprintf("call_%04d", calls+1),
				"status", []string{"in_progress", "completed", "failed"}[r.Intn(3)],
				"content", []any{content},
			}
		default:
			kind = Plan
			var entries []any
			for i, k := 0, 3+r.Intn(5); i < k; i++ {
				entries = append(entries, object{
					"content", text(r, 3, 10),
					"priority", []string{"high", "medium", "low"}[r.Intn(3)],
					"status", []string{"pending", "in_progress", "completed"}[r.Intn(3)],
				})
			}
			update = object{"entries", entries}
		}
		update = append(object{"sessionUpdate", string(kind)}, update...)
		data, err := json.Marshal(object{"sessionId", "sess_abc123def456", "update", update})
		if err != nil {
			panic(err)
		}
		out = append(out, Message{Kind: kind, JSON: data, Line: Notification(data)})
	}
	return out
}

// SortedKeys returns msgs with the members of every object in sorted order,
// as encoding/json writes a map: the discriminators come after the members
// that precede them alphabetically ("content" before "sessionUpdate", "text"
// before "type"), which costs decoders that dispatch on the tag a second pass.
func SortedKeys(msgs []Message) []Message {
	out := make([]Message, len(msgs))
	for i, m := range msgs {
		var v any
		if err := json.Unmarshal(m.JSON, &v); err != nil {
			panic(err)
		}
		data, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		out[i] = Message{Kind: m.Kind, JSON: data, Line: Notification(data)}
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
