package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"
)

// scriptedEnv names the scripted agent a re-executed test binary plays.
const scriptedEnv = "ACPGEN_EXAMPLES_SCRIPTED_AGENT"

// misfits are session updates whose params do not fit the schema; the fifth
// misfit the scripted agent sends has no sessionId.
var misfits = []any{
	map[string]any{"sessionUpdate": "tool_call", "toolCallId": "c1"}, // no title
	map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": 42}},
	map[string]any{"content": map[string]any{"type": "text", "text": "no kind"}},
	map[string]any{"sessionUpdate": "agent_thought_chunk"}, // no content
}

// scriptedAgent is a v1 agent that speaks raw JSON-RPC lines and plays one
// script after session/prompt:
//   - stream: sends an agent message chunk "tick" every 50 ms until
//     session/cancel, then asks permission and ends the turn cancelled
//     once the client answered it;
//   - exit7: writes "giving up" to standard error and exits 7;
//   - misfit: sends five session/update notifications whose params do not
//     fit the schema, then ends the turn.
func scriptedAgent(mode string) {
	var mu sync.Mutex
	send := func(v any) {
		b, _ := json.Marshal(v)
		mu.Lock()
		os.Stdout.Write(append(b, '\n'))
		mu.Unlock()
	}
	update := func(u any) {
		send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": "s1", "update": u}})
	}
	cancelled := make(chan struct{})
	var prompt json.RawMessage
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch m.Method {
		case "initialize":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "authMethods": []any{}}})
		case "session/new":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"sessionId": "s1"}})
		case "session/cancel":
			fmt.Fprintln(os.Stderr, "scripted agent: session/cancel")
			close(cancelled)
			send(map[string]any{"jsonrpc": "2.0", "id": "perm-1", "method": "session/request_permission", "params": map[string]any{
				"sessionId": "s1", "toolCall": map[string]any{"toolCallId": "c1", "title": "late"},
				"options": []any{map[string]any{"optionId": "allow", "name": "Allow", "kind": "allow_once"}}}})
		case "session/prompt":
			prompt = m.ID
			switch mode {
			case "exit7":
				fmt.Fprintln(os.Stderr, "giving up")
				os.Exit(7)
			case "misfit":
				for _, u := range misfits {
					update(u)
				}
				send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"update": map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "no session"}}}})
				send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"stopReason": "end_turn"}})
			case "stream":
				go func() {
					for {
						update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "tick"}})
						select {
						case <-cancelled:
							return
						case <-time.After(50 * time.Millisecond):
						}
					}
				}()
			}
		case "":
			if string(m.ID) == `"perm-1"` {
				var r struct {
					Outcome struct{ Outcome string } `json:"outcome"`
				}
				json.Unmarshal(m.Result, &r)
				fmt.Fprintln(os.Stderr, "scripted agent: permission", r.Outcome.Outcome)
				send(map[string]any{"jsonrpc": "2.0", "id": prompt, "result": map[string]any{"stopReason": "cancelled"}})
			}
		}
	}
}
