package acpv2

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/internal/jsontest"
)

// Tests of the decoding rules that the schema attaches to properties:
// x-deserialize-default-on-error, x-deserialize-skip-invalid-items and
// x-deserialize-default-on-null, and of the rules that hold without them:
// required members, type errors, open enums and null-clears Nullable fields.
// Each case decodes the enclosing definition's Go type with json.Unmarshal.

// rulesCase is one input for a decoded Go type T.
type rulesCase[T any] struct {
	name string
	in   string

	// want is the decoded value, compared with reflect.DeepEqual, unless
	// check is set, which then inspects the decoded value instead.
	want  T
	check func(t *testing.T, got *T)

	// err, when set, is a part of the message of the error decoding must
	// return; field, when set, is the Field of that *json.UnmarshalTypeError.
	err   string
	field string

	// valid marks an input that no rule changes: re-encoding the decoded
	// value must give back JSON equal to in. enc, when set, is the JSON that
	// re-encoding a value changed by a rule must give.
	valid bool
	enc   string
}

// rulesRun runs the cases of one Go type.
func rulesRun[T any](t *testing.T, cases []rulesCase[T]) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got T
			err := json.Unmarshal([]byte(c.in), &got)
			if c.err != "" || c.field != "" {
				if err == nil {
					t.Fatalf("decode %s\n got value %s, want an error containing %q", c.in, rulesShow(got), c.err)
				}
				if !strings.Contains(err.Error(), c.err) {
					t.Errorf("decode %s\n got error %q, want one containing %q", c.in, err, c.err)
				}
				if c.field != "" {
					var te *json.UnmarshalTypeError
					if !errors.As(err, &te) {
						t.Errorf("decode %s\n got error %T (%v), want *json.UnmarshalTypeError", c.in, err, err)
					} else if te.Field != c.field {
						t.Errorf("decode %s\n got error Field %q, want %q (error %q)", c.in, te.Field, c.field, err)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("decode %s\n got error %q, want none", c.in, err)
			}
			if c.check != nil {
				c.check(t, &got)
			} else if !reflect.DeepEqual(got, c.want) {
				t.Errorf("decode %s\n got  %s\n want %s", c.in, rulesShow(got), rulesShow(c.want))
			}
			enc := c.enc
			if c.valid {
				enc = c.in
			}
			if enc == "" {
				return
			}
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatalf("decode %s\n re-encoding %s fails: %v", c.in, rulesShow(got), err)
			}
			if !jsontest.Same(b, []byte(enc)) {
				t.Errorf("decode %s\n re-encoded as %s\n want         %s", c.in, b, enc)
			}
		})
	}
}

// rulesShow prints v as Go syntax and, when it encodes, as JSON.
func rulesShow(v any) string {
	s := fmt.Sprintf("%#v", v)
	if b, err := json.Marshal(v); err == nil {
		s += " = " + string(b)
	} else {
		s += " (does not encode: " + err.Error() + ")"
	}
	return s
}

func rulesPtr[T any](v T) *T { return &v }

// rulesEmpty checks that a list that a rule made empty holds nothing.
func rulesEmpty[E any](t *testing.T, what string, s []E) {
	t.Helper()
	if len(s) != 0 {
		t.Errorf("%s = %s, want it empty", what, rulesShow(s))
	}
}

func TestRulesSameJSON(t *testing.T) {
	if !jsontest.Same([]byte(`{"a":1,"b":[true,null]}`), []byte(` {"b":[true,null],"a":1}`)) {
		t.Error("objects with members in another order differ")
	}
	for _, other := range []string{`{"a":1}`, `{"a":1.0,"b":[true,null]}`, `{"a":1,"b":[null,true]}`, `{"a":1,"b":[true,null]} {}`} {
		if jsontest.Same([]byte(`{"a":1,"b":[true,null]}`), []byte(other)) {
			t.Errorf("%s equals {\"a\":1,\"b\":[true,null]}", other)
		}
	}
}

// rulesPlanEntry returns a valid PlanEntry.
func rulesPlanEntry(content string, p PlanEntryPriority, s PlanEntryStatus) PlanEntry {
	return PlanEntry{Content: content, Priority: p, Status: s}
}

// rulesBoolOption returns a valid boolean SessionConfigOption.
func rulesBoolOption(id SessionConfigID, name string, value bool) SessionConfigOption {
	return SessionConfigOption{ConfigID: id, Name: name, Value: &SessionConfigOptionBoolean{SessionConfigBoolean{CurrentValue: value}}}
}

// rulesCommand returns a valid AvailableCommand.
func rulesCommand(name, description string) AvailableCommand {
	return AvailableCommand{Value: &AvailableCommandData{Command{Name: name, Description: description}}}
}

// x-deserialize-default-on-error: a present value that fails to decode leaves
// the type's default; a missing required key is still an error.
func TestRulesDefaultOnError(t *testing.T) {
	// name, title, kind, status and capabilities are Nullable.
	t.Run("ToolCallUpdate", func(t *testing.T) {
		rulesRun(t, []rulesCase[ToolCallUpdate]{{
			name: "valid",
			in:   `{"toolCallId":"c1","name":"editor","title":"Edit","kind":"edit","status":"completed","locations":[{"path":"/a","line":3}],"capabilities":{"cancel":{}}}`,
			want: ToolCallUpdate{
				ToolCallID:   "c1",
				Name:         Nullable[string]{Present: true, Value: "editor"},
				Title:        Nullable[string]{Present: true, Value: "Edit"},
				Kind:         Nullable[ToolKind]{Present: true, Value: ToolKindEdit},
				Status:       Nullable[ToolCallStatus]{Present: true, Value: ToolCallStatusCompleted},
				Locations:    Nullable[[]ToolCallLocation]{Present: true, Value: []ToolCallLocation{{Path: "/a", Line: rulesPtr(uint32(3))}}},
				Capabilities: Nullable[ToolCallCapabilities]{Present: true, Value: ToolCallCapabilities{Cancel: &ToolCallCancelCapabilities{}}},
			},
			valid: true,
		}, {
			name:  "unknown value of an open enum is kept",
			in:    `{"toolCallId":"c1","kind":"teleport","status":"_waiting"}`,
			want:  ToolCallUpdate{ToolCallID: "c1", Kind: Nullable[ToolKind]{Present: true, Value: "teleport"}, Status: Nullable[ToolCallStatus]{Present: true, Value: "_waiting"}},
			valid: true,
		}, {
			name: "enum wrong type",
			in:   `{"toolCallId":"c1","kind":5,"status":["pending"]}`,
			want: ToolCallUpdate{ToolCallID: "c1"},
			enc:  `{"toolCallId":"c1"}`,
		}, {
			name: "string wrong type",
			in:   `{"toolCallId":"c1","title":{"text":"T"},"name":"n"}`,
			want: ToolCallUpdate{ToolCallID: "c1", Name: Nullable[string]{Present: true, Value: "n"}},
			enc:  `{"toolCallId":"c1","name":"n"}`,
		}, {
			name:  "null clears",
			in:    `{"toolCallId":"c1","title":null,"kind":null}`,
			want:  ToolCallUpdate{ToolCallID: "c1", Title: Nullable[string]{Present: true, Null: true}, Kind: Nullable[ToolKind]{Present: true, Null: true}},
			valid: true,
		}, {
			name: "capabilities wrong type",
			in:   `{"toolCallId":"c1","capabilities":"cancel"}`,
			want: ToolCallUpdate{ToolCallID: "c1"},
			enc:  `{"toolCallId":"c1"}`,
		}, {
			name: "capabilities with a bad inner member",
			in:   `{"toolCallId":"c1","capabilities":{"cancel":true}}`,
			want: ToolCallUpdate{ToolCallID: "c1", Capabilities: Nullable[ToolCallCapabilities]{Present: true}},
			enc:  `{"toolCallId":"c1","capabilities":{}}`,
		}, {
			name:  "missing required sibling",
			in:    `{"kind":5,"title":5}`,
			err:   `object without "toolCallId"`,
			field: "toolCallId",
		}, {
			name:  "required sibling wrong type",
			in:    `{"toolCallId":["c1"]}`,
			err:   "cannot unmarshal array",
			field: "toolCallId",
		}})
	})

	t.Run("InitializeResponse", func(t *testing.T) {
		rulesRun(t, []rulesCase[InitializeResponse]{{
			name: "valid",
			in:   `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"},"capabilities":{"session":{"prompt":{"image":{}},"delete":{}}}}`,
			want: InitializeResponse{
				ProtocolVersion: 2,
				Info:            Implementation{Name: "agent", Version: "1.0"},
				Capabilities: &AgentCapabilities{Session: &SessionCapabilities{
					Prompt: &PromptCapabilities{Image: &PromptImageCapabilities{}},
					Delete: &SessionDeleteCapabilities{},
				}},
			},
			valid: true,
		}, {
			name: "capabilities wrong type",
			in:   `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"},"capabilities":"all"}`,
			want: InitializeResponse{ProtocolVersion: 2, Info: Implementation{Name: "agent", Version: "1.0"}},
			enc:  `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"}}`,
		}, {
			name: "capabilities null where not allowed",
			in:   `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"},"capabilities":null}`,
			want: InitializeResponse{ProtocolVersion: 2, Info: Implementation{Name: "agent", Version: "1.0"}},
		}, {
			name: "capabilities with a bad inner member",
			in:   `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"},"capabilities":{"session":7}}`,
			want: InitializeResponse{ProtocolVersion: 2, Info: Implementation{Name: "agent", Version: "1.0"}, Capabilities: &AgentCapabilities{}},
			enc:  `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"},"capabilities":{}}`,
		}, {
			name: "capabilities with bad nested members",
			in:   `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"},"capabilities":{"session":{"prompt":{"image":true,"audio":{}},"mcp":"stdio"},"auth":[]}}`,
			want: InitializeResponse{ProtocolVersion: 2, Info: Implementation{Name: "agent", Version: "1.0"}, Capabilities: &AgentCapabilities{Session: &SessionCapabilities{
				Prompt: &PromptCapabilities{Audio: &PromptAudioCapabilities{}},
			}}},
			enc: `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"},"capabilities":{"session":{"prompt":{"audio":{}}}}}`,
		}, {
			name:  "missing required sibling",
			in:    `{"protocolVersion":2,"capabilities":"all"}`,
			err:   `object without "info"`,
			field: "info",
		}})
	})

	t.Run("TerminalUpdate", func(t *testing.T) {
		rulesRun(t, []rulesCase[TerminalUpdate]{{
			name: "valid",
			in:   `{"terminalId":"t1","command":"ls","cwd":"/w","output":{"data":"x"},"size":{"cols":80,"rows":24}}`,
			want: TerminalUpdate{TerminalID: "t1", Command: Nullable[string]{Present: true, Value: "ls"}, Cwd: Nullable[AbsolutePath]{Present: true, Value: "/w"},
				Output: Nullable[TerminalOutput]{Present: true, Value: TerminalOutput{Data: "x"}}, Size: Nullable[TerminalSize]{Present: true, Value: TerminalSize{Cols: 80, Rows: 24}}},
			valid: true,
		}, {
			name: "nested value with a bad inner member",
			in:   `{"terminalId":"t1","size":{"cols":"80","rows":24}}`,
			want: TerminalUpdate{TerminalID: "t1"},
			enc:  `{"terminalId":"t1"}`,
		}, {
			name: "nested value without a required inner member",
			in:   `{"terminalId":"t1","size":{"cols":80},"output":{}}`,
			want: TerminalUpdate{TerminalID: "t1"},
		}, {
			name: "nested value out of range",
			in:   `{"terminalId":"t1","size":{"cols":70000,"rows":24}}`,
			want: TerminalUpdate{TerminalID: "t1"},
		}, {
			name: "wrong types",
			in:   `{"terminalId":"t1","command":["ls"],"cwd":5,"output":"x","exitStatus":0}`,
			want: TerminalUpdate{TerminalID: "t1"},
			enc:  `{"terminalId":"t1"}`,
		}, {
			name:  "missing required sibling",
			in:    `{"size":{"cols":"80"}}`,
			err:   `object without "terminalId"`,
			field: "terminalId",
		}})
	})

	t.Run("Diff.patch", func(t *testing.T) {
		rulesRun(t, []rulesCase[Diff]{{
			name:  "valid",
			in:    `{"changes":[{"operation":"add","path":"/a"}],"patch":{"format":"git_patch","text":"diff --git /a /a"}}`,
			want:  Diff{Changes: []DiffChange{{Value: &DiffChangeAdd{DiffPathChange{Path: "/a"}}}}, Patch: &DiffPatch{Format: DiffPatchFormatGitPatch, Text: "diff --git /a /a"}},
			valid: true,
		}, {
			name: "nested value without a required inner member",
			in:   `{"changes":[],"patch":{"format":"git_patch"}}`,
			want: Diff{Changes: []DiffChange{}},
			enc:  `{"changes":[]}`,
		}, {
			name: "wrong type",
			in:   `{"changes":[],"patch":"diff --git /a /a"}`,
			want: Diff{Changes: []DiffChange{}},
		}})
	})

	t.Run("ErrorStopReason", func(t *testing.T) {
		rulesRun(t, []rulesCase[ErrorStopReason]{{
			name:  "valid",
			in:    `{"error":{"code":-32603,"message":"boom"}}`,
			want:  ErrorStopReason{Error: &Error{Code: -32603, Message: "boom"}},
			valid: true,
		}, {
			name: "nested value with a bad inner member",
			in:   `{"error":{"code":"internal","message":"boom"}}`,
			want: ErrorStopReason{},
			enc:  `{}`,
		}})
	})

	t.Run("Icon", func(t *testing.T) {
		rulesRun(t, []rulesCase[Icon]{{
			name:  "valid",
			in:    `{"src":"a.png","mimeType":"image/png","sizes":["16x16"],"theme":"dark"}`,
			want:  Icon{Src: "a.png", MimeType: rulesPtr(MediaType("image/png")), Sizes: []string{"16x16"}, Theme: rulesPtr(IconThemeDark)},
			valid: true,
		}, {
			name:  "unknown value of an open enum is kept",
			in:    `{"src":"a.png","theme":"sepia"}`,
			want:  Icon{Src: "a.png", Theme: rulesPtr(IconTheme("sepia"))},
			valid: true,
		}, {
			name: "wrong types",
			in:   `{"src":"a.png","theme":1,"mimeType":false}`,
			want: Icon{Src: "a.png"},
			enc:  `{"src":"a.png"}`,
		}, {
			name:  "missing required sibling",
			in:    `{"theme":1}`,
			err:   `object without "src"`,
			field: "src",
		}})
	})

	// ListSessionsResponse.sessions is required and defaults on error.
	t.Run("ListSessionsResponse", func(t *testing.T) {
		rulesRun(t, []rulesCase[ListSessionsResponse]{{
			name: "wrong type",
			in:   `{"sessions":{"sessionId":"s","cwd":"/w"}}`,
			want: ListSessionsResponse{Sessions: []SessionInfo{}},
		}, {
			name: "null",
			in:   `{"sessions":null}`,
			want: ListSessionsResponse{Sessions: []SessionInfo{}},
		}, {
			name:  "missing required key",
			in:    `{}`,
			err:   `object without "sessions"`,
			field: "sessions",
		}, {
			name:  "missing required key beside other members",
			in:    `{"nextCursor":"c"}`,
			err:   `object without "sessions"`,
			field: "sessions",
		}})
	})
}

// x-deserialize-skip-invalid-items: elements that fail to decode are dropped
// and the rest kept in order. With default-on-error, a value that is not an
// array leaves the default; alone, it is an error.
func TestRulesSkipInvalidItems(t *testing.T) {
	add := DiffChange{Value: &DiffChangeAdd{DiffPathChange{Path: "/a"}}}
	modify := DiffChange{Value: &DiffChangeModify{DiffPathChange{Path: "/b"}}}

	// Diff.changes skips invalid items but does not default on error.
	t.Run("Diff.changes", func(t *testing.T) {
		rulesRun(t, []rulesCase[Diff]{{
			name:  "valid",
			in:    `{"changes":[{"operation":"add","path":"/a"},{"operation":"modify","path":"/b","fileType":"text","mimeType":"text/plain"}]}`,
			want:  Diff{Changes: []DiffChange{add, {FileType: rulesPtr(DiffFileTypeText), MimeType: rulesPtr(MediaType("text/plain")), Value: &DiffChangeModify{DiffPathChange{Path: "/b"}}}}},
			valid: true,
		}, {
			name:  "empty",
			in:    `{"changes":[]}`,
			want:  Diff{Changes: []DiffChange{}},
			valid: true,
		}, {
			name: "bad items mixed with good ones",
			in:   `{"changes":[{"operation":"add","path":"/a"},{"operation":"add"},{"path":"/x"},{"operation":"delete","path":5},5,"modify",[],{"operation":"modify","path":"/b"}]}`,
			want: Diff{Changes: []DiffChange{add, modify}},
			enc:  `{"changes":[{"operation":"add","path":"/a"},{"operation":"modify","path":"/b"}]}`,
		}, {
			name: "kept item with a bad defaulted member",
			in:   `{"changes":[{"operation":"add","path":"/a","fileType":7},{"operation":"add","path":1}]}`,
			want: Diff{Changes: []DiffChange{add}},
			enc:  `{"changes":[{"operation":"add","path":"/a"}]}`,
		}, {
			name: "null item",
			in:   `{"changes":[null,{"operation":"add","path":"/a"}]}`,
			want: Diff{Changes: []DiffChange{add}},
			enc:  `{"changes":[{"operation":"add","path":"/a"}]}`,
		}, {
			name: "only bad items",
			in:   `{"changes":[1,{}]}`,
			want: Diff{Changes: []DiffChange{}},
			enc:  `{"changes":[]}`,
		}, {
			name:  "not an array",
			in:    `{"changes":{"operation":"add","path":"/a"}}`,
			err:   "cannot unmarshal object",
			field: "changes",
		}, {
			name:  "string instead of an array",
			in:    `{"changes":"add /a"}`,
			err:   "cannot unmarshal string",
			field: "changes",
		}, {
			name:  "null",
			in:    `{"changes":null}`,
			err:   "cannot unmarshal null",
			field: "changes",
		}, {
			name:  "missing required key",
			in:    `{"patch":{"format":"git_patch","text":""}}`,
			err:   `object without "changes"`,
			field: "changes",
		}})
	})

	t.Run("AvailableCommandsUpdate.availableCommands", func(t *testing.T) {
		rulesRun(t, []rulesCase[AvailableCommandsUpdate]{{
			name:  "valid",
			in:    `{"availableCommands":[{"type":"command","name":"a","description":"A"}]}`,
			want:  AvailableCommandsUpdate{AvailableCommands: []AvailableCommand{rulesCommand("a", "A")}},
			valid: true,
		}, {
			name: "bad items mixed with good ones",
			in:   `{"availableCommands":[{"type":"command","name":"a","description":"A"},{"type":"command","name":"b"},{"name":"c","description":"C"},5,{"type":"command","name":"d","description":"D","input":7}]}`,
			want: AvailableCommandsUpdate{AvailableCommands: []AvailableCommand{rulesCommand("a", "A"), rulesCommand("d", "D")}},
			enc:  `{"availableCommands":[{"type":"command","name":"a","description":"A"},{"type":"command","name":"d","description":"D"}]}`,
		}, {
			name:  "not an array",
			in:    `{"availableCommands":{"type":"command","name":"a","description":"A"}}`,
			err:   "cannot unmarshal object",
			field: "availableCommands",
		}, {
			name:  "null",
			in:    `{"availableCommands":null}`,
			err:   "cannot unmarshal null",
			field: "availableCommands",
		}, {
			name:  "missing required key",
			in:    `{}`,
			err:   `object without "availableCommands"`,
			field: "availableCommands",
		}})
	})

	t.Run("ConfigOptionUpdate.configOptions", func(t *testing.T) {
		rulesRun(t, []rulesCase[ConfigOptionUpdate]{{
			name:  "valid",
			in:    `{"configOptions":[{"type":"boolean","configId":"a","name":"A","currentValue":true}]}`,
			want:  ConfigOptionUpdate{ConfigOptions: []SessionConfigOption{rulesBoolOption("a", "A", true)}},
			valid: true,
		}, {
			name: "bad items mixed with good ones",
			in:   `{"configOptions":[{"type":"boolean","configId":"a","name":"A","currentValue":true},{"type":"boolean","configId":"b","name":"B"},{"configId":"c"},true,{"type":"boolean","configId":"d","name":"D","currentValue":false,"description":7}]}`,
			want: ConfigOptionUpdate{ConfigOptions: []SessionConfigOption{rulesBoolOption("a", "A", true), rulesBoolOption("d", "D", false)}},
			enc:  `{"configOptions":[{"type":"boolean","configId":"a","name":"A","currentValue":true},{"type":"boolean","configId":"d","name":"D","currentValue":false}]}`,
		}, {
			name:  "not an array",
			in:    `{"configOptions":5}`,
			err:   "cannot unmarshal number",
			field: "configOptions",
		}, {
			name:  "missing required key",
			in:    `{"_meta":{}}`,
			err:   `object without "configOptions"`,
			field: "configOptions",
		}})
	})

	t.Run("SetSessionConfigOptionResponse.configOptions", func(t *testing.T) {
		rulesRun(t, []rulesCase[SetSessionConfigOptionResponse]{{
			name: "bad items mixed with good ones",
			in:   `{"configOptions":["a",{"type":"boolean","configId":"a","name":"A","currentValue":true},{"type":"boolean","configId":"b","name":"B","currentValue":"yes"}]}`,
			want: SetSessionConfigOptionResponse{ConfigOptions: []SessionConfigOption{rulesBoolOption("a", "A", true)}},
		}, {
			name:  "not an array",
			in:    `{"configOptions":"a"}`,
			err:   "cannot unmarshal string",
			field: "configOptions",
		}, {
			name:  "missing required key",
			in:    `{}`,
			err:   `object without "configOptions"`,
			field: "configOptions",
		}})
	})

	// The fields below also default on error.
	t.Run("ListSessionsResponse.sessions", func(t *testing.T) {
		rulesRun(t, []rulesCase[ListSessionsResponse]{{
			name:  "valid",
			in:    `{"sessions":[{"sessionId":"s1","cwd":"/w"},{"sessionId":"s2","cwd":"/v","title":"T"}]}`,
			want:  ListSessionsResponse{Sessions: []SessionInfo{{SessionID: "s1", Cwd: "/w"}, {SessionID: "s2", Cwd: "/v", Title: rulesPtr("T")}}},
			valid: true,
		}, {
			name: "bad items mixed with good ones",
			in:   `{"sessions":[{"sessionId":"s1","cwd":"/w"},{"cwd":"/w"},"s2",{"sessionId":"s3","cwd":"/w","title":5},{"sessionId":4,"cwd":"/w"}]}`,
			want: ListSessionsResponse{Sessions: []SessionInfo{{SessionID: "s1", Cwd: "/w"}, {SessionID: "s3", Cwd: "/w"}}},
			enc:  `{"sessions":[{"sessionId":"s1","cwd":"/w"},{"sessionId":"s3","cwd":"/w"}]}`,
		}, {
			name: "null item",
			in:   `{"sessions":[null,{"sessionId":"s1","cwd":"/w"}]}`,
			want: ListSessionsResponse{Sessions: []SessionInfo{{SessionID: "s1", Cwd: "/w"}}},
		}, {
			name: "not an array",
			in:   `{"sessions":"s1"}`,
			want: ListSessionsResponse{Sessions: []SessionInfo{}},
		}})
	})

	t.Run("Icon.sizes", func(t *testing.T) {
		rulesRun(t, []rulesCase[Icon]{{
			name: "bad items mixed with good ones",
			in:   `{"src":"a.png","sizes":["16x16",32,{"w":48},"any"]}`,
			want: Icon{Src: "a.png", Sizes: []string{"16x16", "any"}},
			enc:  `{"src":"a.png","sizes":["16x16","any"]}`,
		}, {
			name: "null item",
			in:   `{"src":"a.png","sizes":["16x16",null,"any"]}`,
			want: Icon{Src: "a.png", Sizes: []string{"16x16", "any"}},
			enc:  `{"src":"a.png","sizes":["16x16","any"]}`,
		}, {
			name: "not an array",
			in:   `{"src":"a.png","sizes":"16x16"}`,
			want: Icon{Src: "a.png"},
			enc:  `{"src":"a.png"}`,
		}, {
			name: "null",
			in:   `{"src":"a.png","sizes":null}`,
			want: Icon{Src: "a.png"},
		}})
	})

	t.Run("Annotations.audience", func(t *testing.T) {
		// Role is an open enum in v2: any string is kept.
		rulesRun(t, []rulesCase[Annotations]{{
			name:  "valid",
			in:    `{"audience":["user","_bot","assistant"]}`,
			want:  Annotations{Audience: []Role{RoleUser, "_bot", RoleAssistant}},
			valid: true,
		}, {
			name: "bad items mixed with good ones",
			in:   `{"audience":["user",5,{"role":"user"},false,"assistant"]}`,
			want: Annotations{Audience: []Role{RoleUser, RoleAssistant}},
			enc:  `{"audience":["user","assistant"]}`,
		}, {
			name: "null item",
			in:   `{"audience":[null,"user"]}`,
			want: Annotations{Audience: []Role{RoleUser}},
			enc:  `{"audience":["user"]}`,
		}, {
			name: "not an array",
			in:   `{"audience":"user","priority":0.5}`,
			want: Annotations{Priority: rulesPtr(0.5)},
			enc:  `{"priority":0.5}`,
		}})
	})

	t.Run("ResourceLink.icons", func(t *testing.T) {
		rulesRun(t, []rulesCase[ResourceLink]{{
			name: "bad items mixed with good ones",
			in:   `{"name":"f","uri":"file:///f","icons":[{"src":"a.png"},{"mimeType":"image/png"},5,{"src":"b.png","sizes":"x"}]}`,
			want: ResourceLink{Name: "f", URI: "file:///f", Icons: []Icon{{Src: "a.png"}, {Src: "b.png"}}},
			enc:  `{"name":"f","uri":"file:///f","icons":[{"src":"a.png"},{"src":"b.png"}]}`,
		}, {
			name: "not an array",
			in:   `{"name":"f","uri":"file:///f","icons":{"src":"a.png"}}`,
			want: ResourceLink{Name: "f", URI: "file:///f"},
		}})
	})
}

// x-deserialize-default-on-null: an explicit null leaves the empty value;
// anything else is checked as usual. No v2 default-on-null member is
// required, so missing keys are tested on required siblings.
func TestRulesDefaultOnNull(t *testing.T) {
	stdio := MCPServer{Value: &MCPServerStdioVariant{MCPServerStdio{
		Name:    "fs",
		Command: "/bin/fs",
		Args:    []string{"-v"},
		Env:     []EnvVariable{{Name: "K", Value: "V"}},
	}}}

	t.Run("NewSessionRequest", func(t *testing.T) {
		rulesRun(t, []rulesCase[NewSessionRequest]{{
			name:  "valid",
			in:    `{"cwd":"/w","additionalDirectories":["/x"],"mcpServers":[{"type":"stdio","name":"fs","command":"/bin/fs","args":["-v"],"env":[{"name":"K","value":"V"}]}]}`,
			want:  NewSessionRequest{Cwd: "/w", AdditionalDirectories: []AbsolutePath{"/x"}, MCPServers: []MCPServer{stdio}},
			valid: true,
		}, {
			name:  "absent",
			in:    `{"cwd":"/w"}`,
			want:  NewSessionRequest{Cwd: "/w"},
			valid: true,
		}, {
			name:  "empty lists",
			in:    `{"cwd":"/w","additionalDirectories":[],"mcpServers":[]}`,
			want:  NewSessionRequest{Cwd: "/w", AdditionalDirectories: []AbsolutePath{}, MCPServers: []MCPServer{}},
			valid: true,
		}, {
			name: "null",
			in:   `{"cwd":"/w","additionalDirectories":null,"mcpServers":null}`,
			check: func(t *testing.T, got *NewSessionRequest) {
				rulesEmpty(t, "MCPServers", got.MCPServers)
				rulesEmpty(t, "AdditionalDirectories", got.AdditionalDirectories)
				if got.Cwd != "/w" {
					t.Errorf("got %s, want cwd /w", rulesShow(*got))
				}
			},
		}, {
			name:  "wrong type",
			in:    `{"cwd":"/w","mcpServers":"none"}`,
			err:   "cannot unmarshal string",
			field: "mcpServers",
		}, {
			name:  "bad item is not dropped",
			in:    `{"cwd":"/w","mcpServers":[5]}`,
			err:   "cannot unmarshal number",
			field: "mcpServers",
		}, {
			name:  "null item is not dropped",
			in:    `{"cwd":"/w","mcpServers":[null]}`,
			err:   "null",
			field: "mcpServers",
		}, {
			name:  "item without a required member is not dropped",
			in:    `{"cwd":"/w","mcpServers":[{"type":"stdio","command":"/bin/fs"}]}`,
			err:   `object without "name"`,
			field: "mcpServers.name",
		}, {
			name:  "optional list with a bad item",
			in:    `{"cwd":"/w","additionalDirectories":["/x",5]}`,
			err:   "cannot unmarshal number",
			field: "additionalDirectories",
		}, {
			name:  "missing required sibling",
			in:    `{"mcpServers":null}`,
			err:   `object without "cwd"`,
			field: "cwd",
		}})
	})

	t.Run("MCPServerStdio", func(t *testing.T) {
		rulesRun(t, []rulesCase[MCPServerStdio]{{
			name:  "valid",
			in:    `{"name":"fs","command":"/bin/fs","args":["-v"],"env":[{"name":"K","value":"V"}]}`,
			want:  MCPServerStdio{Name: "fs", Command: "/bin/fs", Args: []string{"-v"}, Env: []EnvVariable{{Name: "K", Value: "V"}}},
			valid: true,
		}, {
			name:  "absent",
			in:    `{"name":"fs","command":"/bin/fs"}`,
			want:  MCPServerStdio{Name: "fs", Command: "/bin/fs"},
			valid: true,
		}, {
			name: "null",
			in:   `{"name":"fs","command":"/bin/fs","args":null,"env":null}`,
			check: func(t *testing.T, got *MCPServerStdio) {
				rulesEmpty(t, "Args", got.Args)
				rulesEmpty(t, "Env", got.Env)
				if got.Name != "fs" || got.Command != "/bin/fs" {
					t.Errorf("got %s, want name fs and command /bin/fs", rulesShow(*got))
				}
			},
		}, {
			name:  "wrong type",
			in:    `{"name":"fs","command":"/bin/fs","env":{"K":"V"}}`,
			err:   "cannot unmarshal object",
			field: "env",
		}, {
			name:  "item without a required member",
			in:    `{"name":"fs","command":"/bin/fs","env":[{"name":"K"}]}`,
			err:   `object without "value"`,
			field: "env.value",
		}, {
			name:  "missing required sibling",
			in:    `{"command":"/bin/fs","args":null}`,
			err:   `object without "name"`,
			field: "name",
		}})
	})

	t.Run("SessionInfo", func(t *testing.T) {
		rulesRun(t, []rulesCase[SessionInfo]{{
			name:  "valid",
			in:    `{"sessionId":"s","cwd":"/w","additionalDirectories":["/a"]}`,
			want:  SessionInfo{SessionID: "s", Cwd: "/w", AdditionalDirectories: []AbsolutePath{"/a"}},
			valid: true,
		}, {
			name: "null",
			in:   `{"sessionId":"s","cwd":"/w","additionalDirectories":null}`,
			check: func(t *testing.T, got *SessionInfo) {
				rulesEmpty(t, "AdditionalDirectories", got.AdditionalDirectories)
				if got.SessionID != "s" || got.Cwd != "/w" {
					t.Errorf("got %s, want session s in /w", rulesShow(*got))
				}
			},
		}, {
			name:  "wrong type",
			in:    `{"sessionId":"s","cwd":"/w","additionalDirectories":"/a"}`,
			err:   "cannot unmarshal string",
			field: "additionalDirectories",
		}, {
			name:  "bad item is not dropped",
			in:    `{"sessionId":"s","cwd":"/w","additionalDirectories":["/a",5]}`,
			err:   "cannot unmarshal number",
			field: "additionalDirectories",
		}, {
			name:  "missing required sibling",
			in:    `{"sessionId":"s","additionalDirectories":null}`,
			err:   `object without "cwd"`,
			field: "cwd",
		}})
	})
}

// Required members: a missing key is an *json.UnmarshalTypeError whose Field
// is the JSON path of the member.
func TestRulesRequired(t *testing.T) {
	t.Run("PlanEntry", func(t *testing.T) {
		rulesRun(t, []rulesCase[PlanEntry]{
			{name: "content", in: `{"priority":"high","status":"pending"}`, err: `object without "content"`, field: "content"},
			{name: "priority", in: `{"content":"a","status":"pending"}`, err: `object without "priority"`, field: "priority"},
			{name: "status", in: `{"content":"a","priority":"high"}`, err: `object without "status"`, field: "status"},
			{name: "empty object", in: `{}`, err: `object without "`},
			{name: "null", in: `null`, err: "cannot unmarshal null"},
			{name: "not an object", in: `["a","high","pending"]`, err: "cannot unmarshal array"},
			{name: "all present", in: `{"content":"a","priority":"high","status":"pending"}`, want: rulesPlanEntry("a", PlanEntryPriorityHigh, PlanEntryStatusPending), valid: true},
		})
	})
	t.Run("InitializeResponse", func(t *testing.T) {
		rulesRun(t, []rulesCase[InitializeResponse]{{
			name:  "in a nested struct",
			in:    `{"protocolVersion":2,"info":{"version":"1.0"}}`,
			err:   `object without "name"`,
			field: "info.name",
		}, {
			name:  "at the top",
			in:    `{"info":{"name":"agent","version":"1.0"}}`,
			err:   `object without "protocolVersion"`,
			field: "protocolVersion",
		}})
	})
	t.Run("SessionUpdate", func(t *testing.T) {
		rulesRun(t, []rulesCase[SessionUpdate]{{
			name:  "in a union variant",
			in:    `{"sessionUpdate":"available_commands_update"}`,
			err:   `object without "availableCommands"`,
			field: "availableCommands",
		}, {
			name:  "skip-invalid-items list that is not an array, in a union variant",
			in:    `{"sessionUpdate":"available_commands_update","availableCommands":{}}`,
			err:   "cannot unmarshal object",
			field: "availableCommands",
		}, {
			name:  "valid",
			in:    `{"sessionUpdate":"available_commands_update","availableCommands":[{"type":"command","name":"a","description":"A"}]}`,
			want:  SessionUpdate{Value: &SessionUpdateAvailableCommandsUpdate{AvailableCommandsUpdate{AvailableCommands: []AvailableCommand{rulesCommand("a", "A")}}}},
			valid: true,
		}})
	})
}

// Members without a decoding extension: a value of the wrong type, or null
// where the schema does not allow it, is an error.
func TestRulesWrongType(t *testing.T) {
	t.Run("NewSessionRequest", func(t *testing.T) {
		rulesRun(t, []rulesCase[NewSessionRequest]{
			{name: "number for string", in: `{"cwd":5}`, err: "cannot unmarshal number", field: "cwd"},
			{name: "null for string", in: `{"cwd":null}`, err: "cannot unmarshal null", field: "cwd"},
		})
	})
	t.Run("TerminalSize", func(t *testing.T) {
		rulesRun(t, []rulesCase[TerminalSize]{
			{name: "string for integer", in: `{"cols":"80","rows":24}`, err: "cannot unmarshal string", field: "cols"},
			{name: "out of range", in: `{"cols":80,"rows":70000}`, err: "cannot unmarshal number", field: "rows"},
			{name: "valid", in: `{"cols":80,"rows":24}`, want: TerminalSize{Cols: 80, Rows: 24}, valid: true},
		})
	})
	t.Run("DiffPatch", func(t *testing.T) {
		rulesRun(t, []rulesCase[DiffPatch]{
			{name: "number for string", in: `{"format":"git_patch","text":5}`, err: "cannot unmarshal number", field: "text"},
			{name: "null for enum", in: `{"format":null,"text":""}`, err: "cannot unmarshal null", field: "format"},
		})
	})
}

// v2 enums are open: an unknown string is kept as is, but a value that is not
// a string is still an error.
func TestRulesOpenEnums(t *testing.T) {
	t.Run("PlanEntry", func(t *testing.T) {
		rulesRun(t, []rulesCase[PlanEntry]{
			{name: "unknown priority", in: `{"content":"a","priority":"urgent","status":"pending"}`, want: rulesPlanEntry("a", "urgent", PlanEntryStatusPending), valid: true},
			{name: "custom status", in: `{"content":"a","priority":"low","status":"_blocked"}`, want: rulesPlanEntry("a", PlanEntryPriorityLow, "_blocked"), valid: true},
			{name: "number priority", in: `{"content":"a","priority":1,"status":"pending"}`, err: "cannot unmarshal number", field: "priority"},
			{name: "null status", in: `{"content":"a","priority":"low","status":null}`, err: "cannot unmarshal null", field: "status"},
		})
	})
	t.Run("PermissionOption", func(t *testing.T) {
		rulesRun(t, []rulesCase[PermissionOption]{
			{name: "unknown kind", in: `{"optionId":"o","name":"n","kind":"allow_sometimes"}`, want: PermissionOption{OptionID: "o", Name: "n", Kind: "allow_sometimes"}, valid: true},
		})
	})
}

// Optional members whose null clears a value decode to Nullable, which keeps
// absent, null and a value apart.
func TestRulesNullable(t *testing.T) {
	rulesRun(t, []rulesCase[SessionInfoUpdate]{{
		name:  "absent",
		in:    `{}`,
		want:  SessionInfoUpdate{},
		valid: true,
	}, {
		name:  "null clears",
		in:    `{"title":null}`,
		want:  SessionInfoUpdate{Title: Nullable[string]{Present: true, Null: true}},
		valid: true,
	}, {
		name:  "value",
		in:    `{"title":"New title","updatedAt":null}`,
		want:  SessionInfoUpdate{Title: Nullable[string]{Present: true, Value: "New title"}, UpdatedAt: Nullable[string]{Present: true, Null: true}},
		valid: true,
	}, {
		name:  "empty string is a value",
		in:    `{"title":""}`,
		want:  SessionInfoUpdate{Title: Nullable[string]{Present: true}},
		valid: true,
	}, {
		name: "wrong type defaults to absent",
		in:   `{"title":5,"updatedAt":"2025-01-01T00:00:00Z"}`,
		want: SessionInfoUpdate{UpdatedAt: Nullable[string]{Present: true, Value: "2025-01-01T00:00:00Z"}},
		enc:  `{"updatedAt":"2025-01-01T00:00:00Z"}`,
	}})
}
