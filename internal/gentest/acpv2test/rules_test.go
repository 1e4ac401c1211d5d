package acpv2test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// Tests of the decoding rules that the schema attaches to properties:
// x-deserialize-default-on-error, x-deserialize-skip-invalid-items and
// x-deserialize-default-on-null, and of the rules that hold without them:
// required members, type errors, open enums and null-clears Nullable fields.
// Each case decodes the enclosing definition's Go type with json.Unmarshal.

// rulesPlanEntry returns a valid PlanEntry.
func rulesPlanEntry(content string, p acpv2.PlanEntryPriority, s acpv2.PlanEntryStatus) acpv2.PlanEntry {
	return acpv2.PlanEntry{Content: content, Priority: p, Status: s}
}

// rulesBoolOption returns a valid boolean SessionConfigOption.
func rulesBoolOption(id acpv2.SessionConfigID, name string, value bool) acpv2.SessionConfigOption {
	return acpv2.SessionConfigOption{ConfigID: id, Name: name, Value: &acpv2.SessionConfigOptionBoolean{SessionConfigBoolean: acpv2.SessionConfigBoolean{CurrentValue: value}}}
}

// rulesCommand returns a valid AvailableCommand.
func rulesCommand(name, description string) acpv2.AvailableCommand {
	return acpv2.AvailableCommand{Value: &acpv2.AvailableCommandData{Command: acpv2.Command{Name: name, Description: description}}}
}

// x-deserialize-default-on-error: a present value that fails to decode leaves
// the type's default; a missing required key is still an error.
func TestRulesDefaultOnError(t *testing.T) {
	// name, title, kind, status and capabilities are Nullable.
	t.Run("ToolCallUpdate", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.ToolCallUpdate]{{
			Name: "valid",
			In:   `{"toolCallId":"c1","name":"editor","title":"Edit","kind":"edit","status":"completed","locations":[{"path":"/a","line":3}],"capabilities":{"cancel":{}}}`,
			Want: acpv2.ToolCallUpdate{
				ToolCallID:   "c1",
				Name:         acpv2.Nullable[string]{Present: true, Value: "editor"},
				Title:        acpv2.Nullable[string]{Present: true, Value: "Edit"},
				Kind:         acpv2.Nullable[acpv2.ToolKind]{Present: true, Value: acpv2.ToolKindEdit},
				Status:       acpv2.Nullable[acpv2.ToolCallStatus]{Present: true, Value: acpv2.ToolCallStatusCompleted},
				Locations:    acpv2.Nullable[[]acpv2.ToolCallLocation]{Present: true, Value: []acpv2.ToolCallLocation{{Path: "/a", Line: acpv2.Ptr(uint32(3))}}},
				Capabilities: acpv2.Nullable[acpv2.ToolCallCapabilities]{Present: true, Value: acpv2.ToolCallCapabilities{Cancel: &acpv2.ToolCallCancelCapabilities{}}},
			},
			Valid: true,
		}, {
			Name:  "unknown value of an open enum is kept",
			In:    `{"toolCallId":"c1","kind":"teleport","status":"_waiting"}`,
			Want:  acpv2.ToolCallUpdate{ToolCallID: "c1", Kind: acpv2.Nullable[acpv2.ToolKind]{Present: true, Value: "teleport"}, Status: acpv2.Nullable[acpv2.ToolCallStatus]{Present: true, Value: "_waiting"}},
			Valid: true,
		}, {
			Name: "enum wrong type",
			In:   `{"toolCallId":"c1","kind":5,"status":["pending"]}`,
			Want: acpv2.ToolCallUpdate{ToolCallID: "c1"},
			Enc:  `{"toolCallId":"c1"}`,
		}, {
			Name: "string wrong type",
			In:   `{"toolCallId":"c1","title":{"text":"T"},"name":"n"}`,
			Want: acpv2.ToolCallUpdate{ToolCallID: "c1", Name: acpv2.Nullable[string]{Present: true, Value: "n"}},
			Enc:  `{"toolCallId":"c1","name":"n"}`,
		}, {
			Name:  "null clears",
			In:    `{"toolCallId":"c1","title":null,"kind":null}`,
			Want:  acpv2.ToolCallUpdate{ToolCallID: "c1", Title: acpv2.Nullable[string]{Present: true, Null: true}, Kind: acpv2.Nullable[acpv2.ToolKind]{Present: true, Null: true}},
			Valid: true,
		}, {
			Name: "capabilities wrong type",
			In:   `{"toolCallId":"c1","capabilities":"cancel"}`,
			Want: acpv2.ToolCallUpdate{ToolCallID: "c1"},
			Enc:  `{"toolCallId":"c1"}`,
		}, {
			Name: "capabilities with a bad inner member",
			In:   `{"toolCallId":"c1","capabilities":{"cancel":true}}`,
			Want: acpv2.ToolCallUpdate{ToolCallID: "c1", Capabilities: acpv2.Nullable[acpv2.ToolCallCapabilities]{Present: true}},
			Enc:  `{"toolCallId":"c1","capabilities":{}}`,
		}, {
			Name:  "missing required sibling",
			In:    `{"kind":5,"title":5}`,
			Err:   `object without "toolCallId"`,
			Field: "toolCallId",
		}, {
			Name:  "required sibling wrong type",
			In:    `{"toolCallId":["c1"]}`,
			Err:   "cannot unmarshal array",
			Field: "toolCallId",
		}})
	})

	t.Run("InitializeResponse", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.InitializeResponse]{{
			Name: "valid",
			In:   `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"},"capabilities":{"session":{"prompt":{"image":{}},"delete":{}}}}`,
			Want: acpv2.InitializeResponse{
				ProtocolVersion: 2,
				Info:            acpv2.Implementation{Name: "agent", Version: "1.0"},
				Capabilities: &acpv2.AgentCapabilities{Session: &acpv2.SessionCapabilities{
					Prompt: &acpv2.PromptCapabilities{Image: &acpv2.PromptImageCapabilities{}},
					Delete: &acpv2.SessionDeleteCapabilities{},
				}},
			},
			Valid: true,
		}, {
			Name: "capabilities wrong type",
			In:   `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"},"capabilities":"all"}`,
			Want: acpv2.InitializeResponse{ProtocolVersion: 2, Info: acpv2.Implementation{Name: "agent", Version: "1.0"}},
			Enc:  `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"}}`,
		}, {
			Name: "capabilities null where not allowed",
			In:   `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"},"capabilities":null}`,
			Want: acpv2.InitializeResponse{ProtocolVersion: 2, Info: acpv2.Implementation{Name: "agent", Version: "1.0"}},
		}, {
			Name: "capabilities with a bad inner member",
			In:   `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"},"capabilities":{"session":7}}`,
			Want: acpv2.InitializeResponse{ProtocolVersion: 2, Info: acpv2.Implementation{Name: "agent", Version: "1.0"}, Capabilities: &acpv2.AgentCapabilities{}},
			Enc:  `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"},"capabilities":{}}`,
		}, {
			Name: "capabilities with bad nested members",
			In:   `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"},"capabilities":{"session":{"prompt":{"image":true,"audio":{}},"mcp":"stdio"},"auth":[]}}`,
			Want: acpv2.InitializeResponse{ProtocolVersion: 2, Info: acpv2.Implementation{Name: "agent", Version: "1.0"}, Capabilities: &acpv2.AgentCapabilities{Session: &acpv2.SessionCapabilities{
				Prompt: &acpv2.PromptCapabilities{Audio: &acpv2.PromptAudioCapabilities{}},
			}}},
			Enc: `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"},"capabilities":{"session":{"prompt":{"audio":{}}}}}`,
		}, {
			Name:  "missing required sibling",
			In:    `{"protocolVersion":2,"capabilities":"all"}`,
			Err:   `object without "info"`,
			Field: "info",
		}})
	})

	t.Run("TerminalUpdate", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.TerminalUpdate]{{
			Name: "valid",
			In:   `{"terminalId":"t1","command":"ls","cwd":"/w","output":{"data":"x"},"size":{"cols":80,"rows":24}}`,
			Want: acpv2.TerminalUpdate{TerminalID: "t1", Command: acpv2.Nullable[string]{Present: true, Value: "ls"}, Cwd: acpv2.Nullable[acpv2.AbsolutePath]{Present: true, Value: "/w"},
				Output: acpv2.Nullable[acpv2.TerminalOutput]{Present: true, Value: acpv2.TerminalOutput{Data: "x"}}, Size: acpv2.Nullable[acpv2.TerminalSize]{Present: true, Value: acpv2.TerminalSize{Cols: 80, Rows: 24}}},
			Valid: true,
		}, {
			Name: "nested value with a bad inner member",
			In:   `{"terminalId":"t1","size":{"cols":"80","rows":24}}`,
			Want: acpv2.TerminalUpdate{TerminalID: "t1"},
			Enc:  `{"terminalId":"t1"}`,
		}, {
			Name: "nested value without a required inner member",
			In:   `{"terminalId":"t1","size":{"cols":80},"output":{}}`,
			Want: acpv2.TerminalUpdate{TerminalID: "t1"},
		}, {
			Name: "nested value out of range",
			In:   `{"terminalId":"t1","size":{"cols":70000,"rows":24}}`,
			Want: acpv2.TerminalUpdate{TerminalID: "t1"},
		}, {
			Name: "wrong types",
			In:   `{"terminalId":"t1","command":["ls"],"cwd":5,"output":"x","exitStatus":0}`,
			Want: acpv2.TerminalUpdate{TerminalID: "t1"},
			Enc:  `{"terminalId":"t1"}`,
		}, {
			Name:  "missing required sibling",
			In:    `{"size":{"cols":"80"}}`,
			Err:   `object without "terminalId"`,
			Field: "terminalId",
		}})
	})

	t.Run("Diff.patch", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.Diff]{{
			Name:  "valid",
			In:    `{"changes":[{"operation":"add","path":"/a"}],"patch":{"format":"git_patch","text":"diff --git /a /a"}}`,
			Want:  acpv2.Diff{Changes: []acpv2.DiffChange{{Value: &acpv2.DiffChangeAdd{DiffPathChange: acpv2.DiffPathChange{Path: "/a"}}}}, Patch: &acpv2.DiffPatch{Format: acpv2.DiffPatchFormatGitPatch, Text: "diff --git /a /a"}},
			Valid: true,
		}, {
			Name: "nested value without a required inner member",
			In:   `{"changes":[],"patch":{"format":"git_patch"}}`,
			Want: acpv2.Diff{Changes: []acpv2.DiffChange{}},
			Enc:  `{"changes":[]}`,
		}, {
			Name: "wrong type",
			In:   `{"changes":[],"patch":"diff --git /a /a"}`,
			Want: acpv2.Diff{Changes: []acpv2.DiffChange{}},
		}})
	})

	t.Run("ErrorStopReason", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.ErrorStopReason]{{
			Name:  "valid",
			In:    `{"error":{"code":-32603,"message":"boom"}}`,
			Want:  acpv2.ErrorStopReason{Error: &acpv2.Error{Code: -32603, Message: "boom"}},
			Valid: true,
		}, {
			Name: "nested value with a bad inner member",
			In:   `{"error":{"code":"internal","message":"boom"}}`,
			Want: acpv2.ErrorStopReason{},
			Enc:  `{}`,
		}})
	})

	t.Run("Icon", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.Icon]{{
			Name:  "valid",
			In:    `{"src":"a.png","mimeType":"image/png","sizes":["16x16"],"theme":"dark"}`,
			Want:  acpv2.Icon{Src: "a.png", MimeType: acpv2.Ptr(acpv2.MediaType("image/png")), Sizes: []string{"16x16"}, Theme: acpv2.Ptr(acpv2.IconThemeDark)},
			Valid: true,
		}, {
			Name:  "unknown value of an open enum is kept",
			In:    `{"src":"a.png","theme":"sepia"}`,
			Want:  acpv2.Icon{Src: "a.png", Theme: acpv2.Ptr(acpv2.IconTheme("sepia"))},
			Valid: true,
		}, {
			Name: "wrong types",
			In:   `{"src":"a.png","theme":1,"mimeType":false}`,
			Want: acpv2.Icon{Src: "a.png"},
			Enc:  `{"src":"a.png"}`,
		}, {
			Name:  "missing required sibling",
			In:    `{"theme":1}`,
			Err:   `object without "src"`,
			Field: "src",
		}})
	})

	// ListSessionsResponse.sessions is required and defaults on error.
	t.Run("ListSessionsResponse", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.ListSessionsResponse]{{
			Name: "wrong type",
			In:   `{"sessions":{"sessionId":"s","cwd":"/w"}}`,
			Want: acpv2.ListSessionsResponse{Sessions: []acpv2.SessionInfo{}},
		}, {
			Name: "null",
			In:   `{"sessions":null}`,
			Want: acpv2.ListSessionsResponse{Sessions: []acpv2.SessionInfo{}},
		}, {
			Name:  "missing required key",
			In:    `{}`,
			Err:   `object without "sessions"`,
			Field: "sessions",
		}, {
			Name:  "missing required key beside other members",
			In:    `{"nextCursor":"c"}`,
			Err:   `object without "sessions"`,
			Field: "sessions",
		}})
	})
}

// x-deserialize-skip-invalid-items: elements that fail to decode are dropped
// and the rest kept in order. With default-on-error, a value that is not an
// array leaves the default; alone, it is an error.
func TestRulesSkipInvalidItems(t *testing.T) {
	add := acpv2.DiffChange{Value: &acpv2.DiffChangeAdd{DiffPathChange: acpv2.DiffPathChange{Path: "/a"}}}
	modify := acpv2.DiffChange{Value: &acpv2.DiffChangeModify{DiffPathChange: acpv2.DiffPathChange{Path: "/b"}}}

	// Diff.changes skips invalid items but does not default on error.
	t.Run("Diff.changes", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.Diff]{{
			Name:  "valid",
			In:    `{"changes":[{"operation":"add","path":"/a"},{"operation":"modify","path":"/b","fileType":"text","mimeType":"text/plain"}]}`,
			Want:  acpv2.Diff{Changes: []acpv2.DiffChange{add, {FileType: acpv2.Ptr(acpv2.DiffFileTypeText), MimeType: acpv2.Ptr(acpv2.MediaType("text/plain")), Value: &acpv2.DiffChangeModify{DiffPathChange: acpv2.DiffPathChange{Path: "/b"}}}}},
			Valid: true,
		}, {
			Name:  "empty",
			In:    `{"changes":[]}`,
			Want:  acpv2.Diff{Changes: []acpv2.DiffChange{}},
			Valid: true,
		}, {
			Name: "bad items mixed with good ones",
			In:   `{"changes":[{"operation":"add","path":"/a"},{"operation":"add"},{"path":"/x"},{"operation":"delete","path":5},5,"modify",[],{"operation":"modify","path":"/b"}]}`,
			Want: acpv2.Diff{Changes: []acpv2.DiffChange{add, modify}},
			Enc:  `{"changes":[{"operation":"add","path":"/a"},{"operation":"modify","path":"/b"}]}`,
		}, {
			// The item after a dropped one is decoded where that one was,
			// which keeps none of the members it had read.
			Name: "item after a dropped one",
			In:   `{"changes":[{"operation":"modify","fileType":"text","path":5},{"operation":"modify","path":"/b"}]}`,
			Want: acpv2.Diff{Changes: []acpv2.DiffChange{modify}},
			Enc:  `{"changes":[{"operation":"modify","path":"/b"}]}`,
		}, {
			Name: "kept item with a bad defaulted member",
			In:   `{"changes":[{"operation":"add","path":"/a","fileType":7},{"operation":"add","path":1}]}`,
			Want: acpv2.Diff{Changes: []acpv2.DiffChange{add}},
			Enc:  `{"changes":[{"operation":"add","path":"/a"}]}`,
		}, {
			Name: "null item",
			In:   `{"changes":[null,{"operation":"add","path":"/a"}]}`,
			Want: acpv2.Diff{Changes: []acpv2.DiffChange{add}},
			Enc:  `{"changes":[{"operation":"add","path":"/a"}]}`,
		}, {
			Name: "only bad items",
			In:   `{"changes":[1,{}]}`,
			Want: acpv2.Diff{Changes: []acpv2.DiffChange{}},
			Enc:  `{"changes":[]}`,
		}, {
			Name:  "not an array",
			In:    `{"changes":{"operation":"add","path":"/a"}}`,
			Err:   "cannot unmarshal object",
			Field: "changes",
		}, {
			Name:  "string instead of an array",
			In:    `{"changes":"add /a"}`,
			Err:   "cannot unmarshal string",
			Field: "changes",
		}, {
			Name:  "null",
			In:    `{"changes":null}`,
			Err:   "cannot unmarshal null",
			Field: "changes",
		}, {
			Name:  "missing required key",
			In:    `{"patch":{"format":"git_patch","text":""}}`,
			Err:   `object without "changes"`,
			Field: "changes",
		}})
	})

	t.Run("AvailableCommandsUpdate.availableCommands", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.AvailableCommandsUpdate]{{
			Name:  "valid",
			In:    `{"availableCommands":[{"type":"command","name":"a","description":"A"}]}`,
			Want:  acpv2.AvailableCommandsUpdate{AvailableCommands: []acpv2.AvailableCommand{rulesCommand("a", "A")}},
			Valid: true,
		}, {
			Name: "bad items mixed with good ones",
			In:   `{"availableCommands":[{"type":"command","name":"a","description":"A"},{"type":"command","name":"b"},{"name":"c","description":"C"},5,{"type":"command","name":"d","description":"D","input":7}]}`,
			Want: acpv2.AvailableCommandsUpdate{AvailableCommands: []acpv2.AvailableCommand{rulesCommand("a", "A"), rulesCommand("d", "D")}},
			Enc:  `{"availableCommands":[{"type":"command","name":"a","description":"A"},{"type":"command","name":"d","description":"D"}]}`,
		}, {
			Name:  "not an array",
			In:    `{"availableCommands":{"type":"command","name":"a","description":"A"}}`,
			Err:   "cannot unmarshal object",
			Field: "availableCommands",
		}, {
			Name:  "null",
			In:    `{"availableCommands":null}`,
			Err:   "cannot unmarshal null",
			Field: "availableCommands",
		}, {
			Name:  "missing required key",
			In:    `{}`,
			Err:   `object without "availableCommands"`,
			Field: "availableCommands",
		}})
	})

	t.Run("ConfigOptionUpdate.configOptions", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.ConfigOptionUpdate]{{
			Name:  "valid",
			In:    `{"configOptions":[{"type":"boolean","configId":"a","name":"A","currentValue":true}]}`,
			Want:  acpv2.ConfigOptionUpdate{ConfigOptions: []acpv2.SessionConfigOption{rulesBoolOption("a", "A", true)}},
			Valid: true,
		}, {
			Name: "bad items mixed with good ones",
			In:   `{"configOptions":[{"type":"boolean","configId":"a","name":"A","currentValue":true},{"type":"boolean","configId":"b","name":"B"},{"configId":"c"},true,{"type":"boolean","configId":"d","name":"D","currentValue":false,"description":7}]}`,
			Want: acpv2.ConfigOptionUpdate{ConfigOptions: []acpv2.SessionConfigOption{rulesBoolOption("a", "A", true), rulesBoolOption("d", "D", false)}},
			Enc:  `{"configOptions":[{"type":"boolean","configId":"a","name":"A","currentValue":true},{"type":"boolean","configId":"d","name":"D","currentValue":false}]}`,
		}, {
			Name:  "not an array",
			In:    `{"configOptions":5}`,
			Err:   "cannot unmarshal number",
			Field: "configOptions",
		}, {
			Name:  "missing required key",
			In:    `{"_meta":{}}`,
			Err:   `object without "configOptions"`,
			Field: "configOptions",
		}})
	})

	t.Run("SetSessionConfigOptionResponse.configOptions", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.SetSessionConfigOptionResponse]{{
			Name: "bad items mixed with good ones",
			In:   `{"configOptions":["a",{"type":"boolean","configId":"a","name":"A","currentValue":true},{"type":"boolean","configId":"b","name":"B","currentValue":"yes"}]}`,
			Want: acpv2.SetSessionConfigOptionResponse{ConfigOptions: []acpv2.SessionConfigOption{rulesBoolOption("a", "A", true)}},
		}, {
			Name:  "not an array",
			In:    `{"configOptions":"a"}`,
			Err:   "cannot unmarshal string",
			Field: "configOptions",
		}, {
			Name:  "missing required key",
			In:    `{}`,
			Err:   `object without "configOptions"`,
			Field: "configOptions",
		}})
	})

	// The fields below also default on error.
	t.Run("ListSessionsResponse.sessions", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.ListSessionsResponse]{{
			Name:  "valid",
			In:    `{"sessions":[{"sessionId":"s1","cwd":"/w"},{"sessionId":"s2","cwd":"/v","title":"T"}]}`,
			Want:  acpv2.ListSessionsResponse{Sessions: []acpv2.SessionInfo{{SessionID: "s1", Cwd: "/w"}, {SessionID: "s2", Cwd: "/v", Title: acpv2.Ptr("T")}}},
			Valid: true,
		}, {
			Name: "null item",
			In:   `{"sessions":[null,{"sessionId":"s1","cwd":"/w"}]}`,
			Want: acpv2.ListSessionsResponse{Sessions: []acpv2.SessionInfo{{SessionID: "s1", Cwd: "/w"}}},
		}, {
			Name: "not an array",
			In:   `{"sessions":"s1"}`,
			Want: acpv2.ListSessionsResponse{Sessions: []acpv2.SessionInfo{}},
		}})
	})

	t.Run("Icon.sizes", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.Icon]{{
			Name: "bad items mixed with good ones",
			In:   `{"src":"a.png","sizes":["16x16",32,{"w":48},"any"]}`,
			Want: acpv2.Icon{Src: "a.png", Sizes: []string{"16x16", "any"}},
			Enc:  `{"src":"a.png","sizes":["16x16","any"]}`,
		}, {
			Name: "null item",
			In:   `{"src":"a.png","sizes":["16x16",null,"any"]}`,
			Want: acpv2.Icon{Src: "a.png", Sizes: []string{"16x16", "any"}},
			Enc:  `{"src":"a.png","sizes":["16x16","any"]}`,
		}, {
			Name: "not an array",
			In:   `{"src":"a.png","sizes":"16x16"}`,
			Want: acpv2.Icon{Src: "a.png"},
			Enc:  `{"src":"a.png"}`,
		}, {
			Name: "null",
			In:   `{"src":"a.png","sizes":null}`,
			Want: acpv2.Icon{Src: "a.png"},
		}})
	})

	t.Run("Annotations.audience", func(t *testing.T) {
		// Role is an open enum in v2: any string is kept.
		jsontest.RunCases(t, []jsontest.Case[acpv2.Annotations]{{
			Name:  "valid",
			In:    `{"audience":["user","_bot","assistant"]}`,
			Want:  acpv2.Annotations{Audience: []acpv2.Role{acpv2.RoleUser, "_bot", acpv2.RoleAssistant}},
			Valid: true,
		}, {
			Name: "bad items mixed with good ones",
			In:   `{"audience":["user",5,{"role":"user"},false,"assistant"]}`,
			Want: acpv2.Annotations{Audience: []acpv2.Role{acpv2.RoleUser, acpv2.RoleAssistant}},
			Enc:  `{"audience":["user","assistant"]}`,
		}, {
			Name: "null item",
			In:   `{"audience":[null,"user"]}`,
			Want: acpv2.Annotations{Audience: []acpv2.Role{acpv2.RoleUser}},
			Enc:  `{"audience":["user"]}`,
		}, {
			Name: "not an array",
			In:   `{"audience":"user","priority":0.5}`,
			Want: acpv2.Annotations{Priority: acpv2.Ptr(0.5)},
			Enc:  `{"priority":0.5}`,
		}})
	})

	t.Run("ResourceLink.icons", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.ResourceLink]{{
			Name: "bad items mixed with good ones",
			In:   `{"name":"f","uri":"file:///f","icons":[{"src":"a.png"},{"mimeType":"image/png"},5,{"src":"b.png","sizes":"x"}]}`,
			Want: acpv2.ResourceLink{Name: "f", URI: "file:///f", Icons: []acpv2.Icon{{Src: "a.png"}, {Src: "b.png"}}},
			Enc:  `{"name":"f","uri":"file:///f","icons":[{"src":"a.png"},{"src":"b.png"}]}`,
		}, {
			Name: "not an array",
			In:   `{"name":"f","uri":"file:///f","icons":{"src":"a.png"}}`,
			Want: acpv2.ResourceLink{Name: "f", URI: "file:///f"},
		}})
	})
}

// x-deserialize-default-on-null: an explicit null leaves the empty value;
// anything else is checked as usual. No v2 default-on-null member is
// required, so missing keys are tested on required siblings.
func TestRulesDefaultOnNull(t *testing.T) {
	stdio := acpv2.MCPServer{Value: &acpv2.MCPServerStdioVariant{MCPServerStdio: acpv2.MCPServerStdio{
		Name:    "fs",
		Command: "/bin/fs",
		Args:    []string{"-v"},
		Env:     []acpv2.EnvVariable{{Name: "K", Value: "V"}},
	}}}

	t.Run("NewSessionRequest", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.NewSessionRequest]{{
			Name:  "valid",
			In:    `{"cwd":"/w","additionalDirectories":["/x"],"mcpServers":[{"type":"stdio","name":"fs","command":"/bin/fs","args":["-v"],"env":[{"name":"K","value":"V"}]}]}`,
			Want:  acpv2.NewSessionRequest{Cwd: "/w", AdditionalDirectories: []acpv2.AbsolutePath{"/x"}, MCPServers: []acpv2.MCPServer{stdio}},
			Valid: true,
		}, {
			Name:  "absent",
			In:    `{"cwd":"/w"}`,
			Want:  acpv2.NewSessionRequest{Cwd: "/w"},
			Valid: true,
		}, {
			Name:  "empty lists",
			In:    `{"cwd":"/w","additionalDirectories":[],"mcpServers":[]}`,
			Want:  acpv2.NewSessionRequest{Cwd: "/w", AdditionalDirectories: []acpv2.AbsolutePath{}, MCPServers: []acpv2.MCPServer{}},
			Valid: true,
		}, {
			Name: "null",
			In:   `{"cwd":"/w","additionalDirectories":null,"mcpServers":null}`,
			Check: func(t *testing.T, got *acpv2.NewSessionRequest) {
				jsontest.AssertEmpty(t, "MCPServers", got.MCPServers)
				jsontest.AssertEmpty(t, "AdditionalDirectories", got.AdditionalDirectories)
				if got.Cwd != "/w" {
					t.Errorf("got %s, want cwd /w", jsontest.Show(*got))
				}
			},
		}, {
			Name:  "item without a required member is not dropped",
			In:    `{"cwd":"/w","mcpServers":[{"type":"stdio","command":"/bin/fs"}]}`,
			Err:   `object without "name"`,
			Field: "mcpServers.name",
		}, {
			Name:  "optional list with a bad item",
			In:    `{"cwd":"/w","additionalDirectories":["/x",5]}`,
			Err:   "cannot unmarshal number",
			Field: "additionalDirectories",
		}})
	})

	t.Run("MCPServerStdio", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.MCPServerStdio]{{
			Name:  "absent",
			In:    `{"name":"fs","command":"/bin/fs"}`,
			Want:  acpv2.MCPServerStdio{Name: "fs", Command: "/bin/fs"},
			Valid: true,
		}, {
			Name:  "wrong type",
			In:    `{"name":"fs","command":"/bin/fs","env":{"K":"V"}}`,
			Err:   "cannot unmarshal object",
			Field: "env",
		}, {
			Name:  "item without a required member",
			In:    `{"name":"fs","command":"/bin/fs","env":[{"name":"K"}]}`,
			Err:   `object without "value"`,
			Field: "env.value",
		}, {
			Name:  "missing required sibling",
			In:    `{"command":"/bin/fs","args":null}`,
			Err:   `object without "name"`,
			Field: "name",
		}})
	})

	t.Run("SessionInfo", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.SessionInfo]{{
			Name:  "valid",
			In:    `{"sessionId":"s","cwd":"/w","additionalDirectories":["/a"]}`,
			Want:  acpv2.SessionInfo{SessionID: "s", Cwd: "/w", AdditionalDirectories: []acpv2.AbsolutePath{"/a"}},
			Valid: true,
		}, {
			Name: "null",
			In:   `{"sessionId":"s","cwd":"/w","additionalDirectories":null}`,
			Check: func(t *testing.T, got *acpv2.SessionInfo) {
				jsontest.AssertEmpty(t, "AdditionalDirectories", got.AdditionalDirectories)
				if got.SessionID != "s" || got.Cwd != "/w" {
					t.Errorf("got %s, want session s in /w", jsontest.Show(*got))
				}
			},
		}, {
			Name:  "wrong type",
			In:    `{"sessionId":"s","cwd":"/w","additionalDirectories":"/a"}`,
			Err:   "cannot unmarshal string",
			Field: "additionalDirectories",
		}, {
			Name:  "bad item is not dropped",
			In:    `{"sessionId":"s","cwd":"/w","additionalDirectories":["/a",5]}`,
			Err:   "cannot unmarshal number",
			Field: "additionalDirectories",
		}, {
			Name:  "missing required sibling",
			In:    `{"sessionId":"s","additionalDirectories":null}`,
			Err:   `object without "cwd"`,
			Field: "cwd",
		}})
	})
}

// Required members: a missing key is an *json.UnmarshalTypeError whose Field
// is the JSON path of the member.
func TestRulesRequired(t *testing.T) {
	t.Run("InitializeResponse", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.InitializeResponse]{{
			Name:  "in a nested struct",
			In:    `{"protocolVersion":2,"info":{"version":"1.0"}}`,
			Err:   `object without "name"`,
			Field: "info.name",
		}, {
			Name:  "at the top",
			In:    `{"info":{"name":"agent","version":"1.0"}}`,
			Err:   `object without "protocolVersion"`,
			Field: "protocolVersion",
		}})
	})
	t.Run("SessionUpdate", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.SessionUpdate]{{
			Name:  "in a union variant",
			In:    `{"sessionUpdate":"available_commands_update"}`,
			Err:   `object without "availableCommands"`,
			Field: "availableCommands",
		}, {
			Name:  "skip-invalid-items list that is not an array, in a union variant",
			In:    `{"sessionUpdate":"available_commands_update","availableCommands":{}}`,
			Err:   "cannot unmarshal object",
			Field: "availableCommands",
		}, {
			Name:  "valid",
			In:    `{"sessionUpdate":"available_commands_update","availableCommands":[{"type":"command","name":"a","description":"A"}]}`,
			Want:  acpv2.SessionUpdate{Value: &acpv2.SessionUpdateAvailableCommandsUpdate{AvailableCommandsUpdate: acpv2.AvailableCommandsUpdate{AvailableCommands: []acpv2.AvailableCommand{rulesCommand("a", "A")}}}},
			Valid: true,
		}})
	})
}

// Members without a decoding extension: a value of the wrong type, or null
// where the schema does not allow it, is an error.
func TestRulesWrongType(t *testing.T) {
	t.Run("NewSessionRequest", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.NewSessionRequest]{
			{Name: "number for string", In: `{"cwd":5}`, Err: "cannot unmarshal number", Field: "cwd"},
			{Name: "null for string", In: `{"cwd":null}`, Err: "cannot unmarshal null", Field: "cwd"},
		})
	})
	t.Run("TerminalSize", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.TerminalSize]{
			{Name: "string for integer", In: `{"cols":"80","rows":24}`, Err: "cannot unmarshal string", Field: "cols"},
			{Name: "out of range", In: `{"cols":80,"rows":70000}`, Err: "cannot unmarshal number", Field: "rows"},
			{Name: "valid", In: `{"cols":80,"rows":24}`, Want: acpv2.TerminalSize{Cols: 80, Rows: 24}, Valid: true},
		})
	})
	t.Run("DiffPatch", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.DiffPatch]{
			{Name: "number for string", In: `{"format":"git_patch","text":5}`, Err: "cannot unmarshal number", Field: "text"},
			{Name: "null for enum", In: `{"format":null,"text":""}`, Err: "cannot unmarshal null", Field: "format"},
		})
	})
}

// v2 enums are open: an unknown string is kept as is, but a value that is not
// a string is still an error.
func TestRulesOpenEnums(t *testing.T) {
	t.Run("PlanEntry", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.PlanEntry]{
			{Name: "unknown priority", In: `{"content":"a","priority":"urgent","status":"pending"}`, Want: rulesPlanEntry("a", "urgent", acpv2.PlanEntryStatusPending), Valid: true},
			{Name: "custom status", In: `{"content":"a","priority":"low","status":"_blocked"}`, Want: rulesPlanEntry("a", acpv2.PlanEntryPriorityLow, "_blocked"), Valid: true},
			{Name: "number priority", In: `{"content":"a","priority":1,"status":"pending"}`, Err: "cannot unmarshal number", Field: "priority"},
			{Name: "null status", In: `{"content":"a","priority":"low","status":null}`, Err: "cannot unmarshal null", Field: "status"},
		})
	})
	t.Run("PermissionOption", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv2.PermissionOption]{
			{Name: "unknown kind", In: `{"optionId":"o","name":"n","kind":"allow_sometimes"}`, Want: acpv2.PermissionOption{OptionID: "o", Name: "n", Kind: "allow_sometimes"}, Valid: true},
		})
	})
}
