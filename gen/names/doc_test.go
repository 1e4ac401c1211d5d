package names

import "testing"

func TestGoDoc(t *testing.T) {
	ids := map[string]string{"SessionId": "SessionID", "ToolCall": "ToolCall"}
	ident := func(s string) (string, bool) { id, ok := ids[s]; return id, ok }
	for _, c := range []struct{ in, want string }{
		{"Plain text.", "Plain text."},
		{"Uses `SessionId` and `_meta`.", `Uses [SessionID] and "_meta".`},
		{"Blocks appear in:\n- prompts\n- tool calls\n  and results\n\nAfter.",
			"Blocks appear in:\n\n  - prompts\n  - tool calls\n    and results\n\nAfter."},
		{"Steps:\n1. one\n2. two", "Steps:\n\n  1. one\n  2. two"},
		{"See [Docs](https://x.example/d).", "See [Docs].\n\n[Docs]: https://x.example/d"},
		{"**Bold** word.", "Bold word."},
		{"Code:\n```json\n{\"a\":1}\n```\nDone.", "Code:\n\n\t{\"a\":1}\n\nDone."},
		{"**UNSTABLE**\n\nThis capability is not part of the spec yet, and may be removed or changed at any point.\n\nA thing.\n\nMore.",
			"A thing.\n\nUnstable: this item is not part of the protocol yet and may change or be removed.\n\nMore."},
		{"A thing.\n\nDeprecated: use `ToolCall` instead.", "A thing.\n\nDeprecated: use [ToolCall] instead."},
		{"**Deprecated** old form.", "Deprecated: old form."},
	} {
		if got := GoDoc(c.in, ident); got != c.want {
			t.Errorf("GoDoc(%q) =\n%q\nwant\n%q", c.in, got, c.want)
		}
	}
}

func TestLead(t *testing.T) {
	for _, c := range []struct{ ident, in, want string }{
		{"X", "The contents of a resource.", "X holds the contents of a resource."},
		{"X", "The status of a task", "X is the status of a task."},
		{"X", "A session id.", "X is a session id."},
		{"X", "Whether the agent loads.", "X reports whether the agent loads."},
		{"X", "Cancels an ongoing request.", "X cancels an ongoing request."},
		{"X", "Agent supports images.", "X means agent supports images."},
		{"X", "Allow this operation and remember the choice.", "X allows this operation and remembers the choice."},
		{"X", "Filter sessions by state.", "X filters sessions by state."},
		{"X", "Forks an existing session.", "X forks an existing session."},
		{"X", "Commands the agent can execute.", "X holds the commands the agent can execute."},
		{"X", "Reading files or data.", "X is for reading files or data."},
		{"X", "Anything.", "X is anything."},
		{"X", "Working directory for the command.", "X is the working directory for the command."},
		{"X", "Different types of updates that can be sent.", "X is one of the updates that can be sent."},
		{"X", "Categories of tools that can be invoked.", "X is one of the categories of tools that can be invoked."},
		{"X", "All possible requests that a client can send.", "X is one of the possible requests that a client can send."},
		{"X", "The session this request is tied to.", "X is the session this request is tied to."},
		{"X", "The current mode of the session has changed", "X means the current mode of the session has changed."},
		{"ErrorCodeParseError", "Parse error: Invalid JSON was received.", "ErrorCodeParseError means invalid JSON was received."},
		{"X", "On an outgoing view, the id of the message.", "X is, on an outgoing view, the id of the message."},
		{"X", "Intended for programmatic use.", "X is intended for programmatic use."},
		{"X", "Google Vertex AI API protocol.", "X is the Google Vertex AI API protocol."},
		{"X", "OpenAI API protocol.", "X is the OpenAI API protocol."},
		{"X", "How the agent combines prompts.", "X says how the agent combines prompts."},
		{"X", "Unique identifier for a call.", "X is the unique identifier for a call."},
		{"X", "MIME type of the data.", "X is the MIME type of the data."},
		{"X", "X produced by the call.", "X produced by the call."},
		{"X", "Deprecated: gone.", "X is deprecated.\n\nDeprecated: gone."},
		{"X", "The _meta property is reserved.", "X is reserved."},
		{"X", "Session options have been updated.", "X means session options have been updated."},
		{"X", "The process exit code (may be null).", "X is the process exit code (may be null)."},
		{"X", "Summary.\n\nMore text.", "X is the summary.\n\nMore text."},
		{"X", "Client support for updates.", "X is the client support for updates."},
		{"X", "", ""},
	} {
		if got := Lead(c.ident, c.in); got != c.want {
			t.Errorf("Lead(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
