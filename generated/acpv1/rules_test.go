package acpv1

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
// required members, type errors, closed enums and null-clears Nullable fields.
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

// x-deserialize-default-on-error: a present value that fails to decode leaves
// the type's default; a missing required key is still an error.
func TestRulesDefaultOnError(t *testing.T) {
	t.Run("ToolCallUpdate", func(t *testing.T) {
		rulesRun(t, []rulesCase[ToolCallUpdate]{{
			name: "valid",
			in:   `{"toolCallId":"c1","kind":"edit","status":"completed","title":"Edit","name":"editor","content":[{"type":"terminal","terminalId":"t1"}],"locations":[{"path":"/a","line":3}]}`,
			want: ToolCallUpdate{
				ToolCallID: "c1",
				Kind:       rulesPtr(ToolKindEdit),
				Status:     rulesPtr(ToolCallStatusCompleted),
				Title:      rulesPtr("Edit"),
				Name:       rulesPtr("editor"),
				Content:    []ToolCallContent{{Value: &ToolCallContentTerminal{Terminal{TerminalID: "t1"}}}},
				Locations:  []ToolCallLocation{{Path: "/a", Line: rulesPtr(uint32(3))}},
			},
			valid: true,
		}, {
			name: "title wrong type",
			in:   `{"toolCallId":"c1","title":5,"name":"n"}`,
			want: ToolCallUpdate{ToolCallID: "c1", Name: rulesPtr("n")},
			enc:  `{"toolCallId":"c1","name":"n"}`,
		}, {
			name: "title null",
			in:   `{"toolCallId":"c1","title":null}`,
			want: ToolCallUpdate{ToolCallID: "c1"},
			enc:  `{"toolCallId":"c1"}`,
		}, {
			name: "kind unknown value of closed enum",
			in:   `{"toolCallId":"c1","kind":"teleport","title":"T"}`,
			want: ToolCallUpdate{ToolCallID: "c1", Title: rulesPtr("T")},
			enc:  `{"toolCallId":"c1","title":"T"}`,
		}, {
			name: "kind wrong type",
			in:   `{"toolCallId":"c1","kind":["read"]}`,
			want: ToolCallUpdate{ToolCallID: "c1"},
		}, {
			name: "status unknown value of closed enum",
			in:   `{"toolCallId":"c1","status":"paused","kind":"read"}`,
			want: ToolCallUpdate{ToolCallID: "c1", Kind: rulesPtr(ToolKindRead)},
			enc:  `{"toolCallId":"c1","kind":"read"}`,
		}, {
			name: "every defaulted member at once",
			in:   `{"toolCallId":"c1","kind":1,"status":{},"title":false,"name":[],"content":"x","locations":7}`,
			want: ToolCallUpdate{ToolCallID: "c1"},
			enc:  `{"toolCallId":"c1"}`,
		}, {
			name:  "missing required sibling",
			in:    `{"kind":"teleport","title":5}`,
			err:   `object without "toolCallId"`,
			field: "toolCallId",
		}, {
			name:  "required sibling wrong type",
			in:    `{"toolCallId":5,"title":"T"}`,
			err:   "cannot unmarshal number",
			field: "toolCallId",
		}})
	})

	t.Run("ToolCall", func(t *testing.T) {
		// kind and status may not be null, but default on error.
		rulesRun(t, []rulesCase[ToolCall]{{
			name:  "valid",
			in:    `{"toolCallId":"c1","title":"T","kind":"execute","status":"pending"}`,
			want:  ToolCall{ToolCallID: "c1", Title: "T", Kind: rulesPtr(ToolKindExecute), Status: rulesPtr(ToolCallStatusPending)},
			valid: true,
		}, {
			name: "unknown values of closed enums",
			in:   `{"toolCallId":"c1","title":"T","kind":"teleport","status":"paused"}`,
			want: ToolCall{ToolCallID: "c1", Title: "T"},
			enc:  `{"toolCallId":"c1","title":"T"}`,
		}, {
			name: "null where not allowed",
			in:   `{"toolCallId":"c1","title":"T","kind":null,"status":null}`,
			want: ToolCall{ToolCallID: "c1", Title: "T"},
		}, {
			name:  "missing required sibling",
			in:    `{"toolCallId":"c1","kind":"teleport"}`,
			err:   `object without "title"`,
			field: "title",
		}})
	})

	t.Run("InitializeResponse", func(t *testing.T) {
		rulesRun(t, []rulesCase[InitializeResponse]{{
			name: "valid",
			in:   `{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"promptCapabilities":{"image":true,"audio":false}},"agentInfo":{"name":"agent","version":"1.0"}}`,
			want: InitializeResponse{
				ProtocolVersion: 1,
				AgentCapabilities: &AgentCapabilities{
					LoadSession:        rulesPtr(true),
					PromptCapabilities: &PromptCapabilities{Image: rulesPtr(true), Audio: rulesPtr(false)},
				},
				AgentInfo: &Implementation{Name: "agent", Version: "1.0"},
			},
			valid: true,
		}, {
			name: "capabilities wrong type",
			in:   `{"protocolVersion":1,"agentCapabilities":"all"}`,
			want: InitializeResponse{ProtocolVersion: 1},
			enc:  `{"protocolVersion":1}`,
		}, {
			name: "capabilities null where not allowed",
			in:   `{"protocolVersion":1,"agentCapabilities":null}`,
			want: InitializeResponse{ProtocolVersion: 1},
		}, {
			name: "capabilities with a bad inner member",
			in:   `{"protocolVersion":1,"agentCapabilities":{"loadSession":"yes"}}`,
			want: InitializeResponse{ProtocolVersion: 1, AgentCapabilities: &AgentCapabilities{}},
			enc:  `{"protocolVersion":1,"agentCapabilities":{}}`,
		}, {
			name: "capabilities with bad nested members",
			in:   `{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"promptCapabilities":{"image":"yes","audio":true},"mcpCapabilities":5}}`,
			want: InitializeResponse{ProtocolVersion: 1, AgentCapabilities: &AgentCapabilities{
				LoadSession:        rulesPtr(true),
				PromptCapabilities: &PromptCapabilities{Audio: rulesPtr(true)},
			}},
			enc: `{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"promptCapabilities":{"audio":true}}}`,
		}, {
			name: "info with a bad inner member",
			in:   `{"protocolVersion":1,"agentInfo":{"name":5,"version":"1.0"}}`,
			want: InitializeResponse{ProtocolVersion: 1},
			enc:  `{"protocolVersion":1}`,
		}, {
			name: "info without a required inner member",
			in:   `{"protocolVersion":1,"agentInfo":{"version":"1.0"}}`,
			want: InitializeResponse{ProtocolVersion: 1},
		}, {
			name:  "missing required sibling",
			in:    `{"agentCapabilities":"all","agentInfo":5}`,
			err:   `object without "protocolVersion"`,
			field: "protocolVersion",
		}})
	})

	t.Run("InitializeRequest", func(t *testing.T) {
		rulesRun(t, []rulesCase[InitializeRequest]{{
			name:  "valid",
			in:    `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":false},"terminal":true},"clientInfo":{"name":"c","version":"2"}}`,
			want:  InitializeRequest{ProtocolVersion: 1, ClientCapabilities: &ClientCapabilities{Fs: &FileSystemCapabilities{ReadTextFile: rulesPtr(true), WriteTextFile: rulesPtr(false)}, Terminal: rulesPtr(true)}, ClientInfo: &Implementation{Name: "c", Version: "2"}},
			valid: true,
		}, {
			name: "bad nested capabilities",
			in:   `{"protocolVersion":1,"clientCapabilities":{"fs":[],"terminal":"yes"},"clientInfo":{"name":"c","version":2}}`,
			want: InitializeRequest{ProtocolVersion: 1, ClientCapabilities: &ClientCapabilities{}},
			enc:  `{"protocolVersion":1,"clientCapabilities":{}}`,
		}})
	})

	t.Run("UsageUpdate", func(t *testing.T) {
		rulesRun(t, []rulesCase[UsageUpdate]{{
			name:  "valid",
			in:    `{"used":10,"size":100,"cost":{"amount":0.5,"currency":"USD"}}`,
			want:  UsageUpdate{Used: 10, Size: 100, Cost: &Cost{Amount: 0.5, Currency: "USD"}},
			valid: true,
		}, {
			name: "cost with a bad inner member",
			in:   `{"used":10,"size":100,"cost":{"amount":"lots","currency":"USD"}}`,
			want: UsageUpdate{Used: 10, Size: 100},
			enc:  `{"used":10,"size":100}`,
		}, {
			name: "cost without a required inner member",
			in:   `{"used":10,"size":100,"cost":{"amount":1}}`,
			want: UsageUpdate{Used: 10, Size: 100},
		}, {
			name:  "missing required sibling",
			in:    `{"size":100,"cost":7}`,
			err:   `object without "used"`,
			field: "used",
		}})
	})

	t.Run("ResourceLink", func(t *testing.T) {
		rulesRun(t, []rulesCase[ResourceLink]{{
			name:  "valid",
			in:    `{"name":"f","uri":"file:///f","size":12,"mimeType":"text/plain","annotations":{"audience":["user"],"priority":0.5}}`,
			want:  ResourceLink{Name: "f", URI: "file:///f", Size: rulesPtr(int64(12)), MimeType: rulesPtr("text/plain"), Annotations: &Annotations{Audience: []Role{RoleUser}, Priority: rulesPtr(0.5)}},
			valid: true,
		}, {
			name: "integer wrong type",
			in:   `{"name":"f","uri":"file:///f","size":"12"}`,
			want: ResourceLink{Name: "f", URI: "file:///f"},
			enc:  `{"name":"f","uri":"file:///f"}`,
		}, {
			name: "integer with a fraction",
			in:   `{"name":"f","uri":"file:///f","size":1.5}`,
			want: ResourceLink{Name: "f", URI: "file:///f"},
		}, {
			name: "annotations with bad inner members",
			in:   `{"name":"f","uri":"file:///f","annotations":{"priority":"high","lastModified":5,"audience":"user"}}`,
			want: ResourceLink{Name: "f", URI: "file:///f", Annotations: &Annotations{}},
			enc:  `{"name":"f","uri":"file:///f","annotations":{}}`,
		}, {
			name: "annotations wrong type",
			in:   `{"name":"f","uri":"file:///f","annotations":[1]}`,
			want: ResourceLink{Name: "f", URI: "file:///f"},
		}, {
			name:  "missing required sibling",
			in:    `{"name":"f","size":"12"}`,
			err:   `object without "uri"`,
			field: "uri",
		}})
	})

	t.Run("NewSessionResponse", func(t *testing.T) {
		rulesRun(t, []rulesCase[NewSessionResponse]{{
			name:  "valid",
			in:    `{"sessionId":"s","modes":{"currentModeId":"ask","availableModes":[{"id":"ask","name":"Ask"}]}}`,
			want:  NewSessionResponse{SessionID: "s", Modes: &SessionModeState{CurrentModeID: "ask", AvailableModes: []SessionMode{{ID: "ask", Name: "Ask"}}}},
			valid: true,
		}, {
			name: "nested value without a required member",
			in:   `{"sessionId":"s","modes":{"currentModeId":"ask"}}`,
			want: NewSessionResponse{SessionID: "s"},
			enc:  `{"sessionId":"s"}`,
		}, {
			name: "nested value with a bad required member",
			in:   `{"sessionId":"s","modes":{"currentModeId":5,"availableModes":[]}}`,
			want: NewSessionResponse{SessionID: "s"},
		}})
	})

	// Plan.entries is required and defaults on error.
	t.Run("Plan", func(t *testing.T) {
		rulesRun(t, []rulesCase[Plan]{{
			name:  "valid",
			in:    `{"entries":[{"content":"a","priority":"high","status":"pending"}]}`,
			want:  Plan{Entries: []PlanEntry{rulesPlanEntry("a", PlanEntryPriorityHigh, PlanEntryStatusPending)}},
			valid: true,
		}, {
			name: "wrong type",
			in:   `{"entries":"none"}`,
			want: Plan{Entries: []PlanEntry{}},
		}, {
			name: "null",
			in:   `{"entries":null}`,
			want: Plan{Entries: []PlanEntry{}},
		}, {
			name:  "missing required key",
			in:    `{}`,
			err:   `object without "entries"`,
			field: "entries",
		}, {
			name:  "missing required key beside other members",
			in:    `{"_meta":{"k":1}}`,
			err:   `object without "entries"`,
			field: "entries",
		}})
	})

	t.Run("ListSessionsResponse", func(t *testing.T) {
		rulesRun(t, []rulesCase[ListSessionsResponse]{{
			name: "required list wrong type",
			in:   `{"sessions":{"sessionId":"s"},"nextCursor":5}`,
			want: ListSessionsResponse{Sessions: []SessionInfo{}},
		}, {
			name:  "missing required key",
			in:    `{"nextCursor":"c"}`,
			err:   `object without "sessions"`,
			field: "sessions",
		}})
	})

	t.Run("SessionModeState", func(t *testing.T) {
		rulesRun(t, []rulesCase[SessionModeState]{{
			name: "required list wrong type",
			in:   `{"currentModeId":"ask","availableModes":true}`,
			want: SessionModeState{CurrentModeID: "ask", AvailableModes: []SessionMode{}},
		}, {
			name:  "missing required key",
			in:    `{"currentModeId":"ask"}`,
			err:   `object without "availableModes"`,
			field: "availableModes",
		}})
	})
}

// x-deserialize-skip-invalid-items (always with default-on-error in v1):
// elements that fail to decode are dropped and the rest kept in order; a
// value that is not an array leaves the default.
func TestRulesSkipInvalidItems(t *testing.T) {
	a := rulesPlanEntry("a", PlanEntryPriorityHigh, PlanEntryStatusPending)
	c := rulesPlanEntry("c", PlanEntryPriorityLow, PlanEntryStatusCompleted)

	t.Run("Plan.entries", func(t *testing.T) {
		rulesRun(t, []rulesCase[Plan]{{
			name:  "valid",
			in:    `{"entries":[{"content":"a","priority":"high","status":"pending"},{"content":"c","priority":"low","status":"completed"}]}`,
			want:  Plan{Entries: []PlanEntry{a, c}},
			valid: true,
		}, {
			name:  "empty",
			in:    `{"entries":[]}`,
			want:  Plan{Entries: []PlanEntry{}},
			valid: true,
		}, {
			name: "bad items mixed with good ones",
			in: `{"entries":[` +
				`{"content":"a","priority":"high","status":"pending"},` +
				`{"content":"b","priority":"urgent","status":"pending"},` +
				`{"priority":"low","status":"pending"},` +
				`{"content":5,"priority":"low","status":"pending"},` +
				`"entry",7,[],` +
				`{"content":"c","priority":"low","status":"completed"}]}`,
			want: Plan{Entries: []PlanEntry{a, c}},
			enc:  `{"entries":[{"content":"a","priority":"high","status":"pending"},{"content":"c","priority":"low","status":"completed"}]}`,
		}, {
			name: "null item",
			in:   `{"entries":[null,{"content":"a","priority":"high","status":"pending"}]}`,
			want: Plan{Entries: []PlanEntry{a}},
		}, {
			name: "only bad items",
			in:   `{"entries":[1,{"content":"b"}]}`,
			want: Plan{Entries: []PlanEntry{}},
			enc:  `{"entries":[]}`,
		}, {
			name: "not an array",
			in:   `{"entries":{"content":"a","priority":"high","status":"pending"}}`,
			want: Plan{Entries: []PlanEntry{}},
		}})
	})

	t.Run("ToolCallUpdate.content", func(t *testing.T) {
		t1 := ToolCallContent{Value: &ToolCallContentTerminal{Terminal{TerminalID: "t1"}}}
		t2 := ToolCallContent{Value: &ToolCallContentTerminal{Terminal{TerminalID: "t2"}}}
		rulesRun(t, []rulesCase[ToolCallUpdate]{{
			name: "bad items mixed with good ones",
			in:   `{"toolCallId":"c1","content":[{"type":"terminal","terminalId":"t1"},{"type":"terminal"},{"type":"diff","path":"/a"},5,"x",{"type":"terminal","terminalId":"t2"}]}`,
			want: ToolCallUpdate{ToolCallID: "c1", Content: []ToolCallContent{t1, t2}},
			enc:  `{"toolCallId":"c1","content":[{"type":"terminal","terminalId":"t1"},{"type":"terminal","terminalId":"t2"}]}`,
		}, {
			name: "null item",
			in:   `{"toolCallId":"c1","content":[{"type":"terminal","terminalId":"t1"},null]}`,
			want: ToolCallUpdate{ToolCallID: "c1", Content: []ToolCallContent{t1}},
			enc:  `{"toolCallId":"c1","content":[{"type":"terminal","terminalId":"t1"}]}`,
		}, {
			name: "not an array",
			in:   `{"toolCallId":"c1","content":{"type":"terminal","terminalId":"t1"}}`,
			want: ToolCallUpdate{ToolCallID: "c1"},
			enc:  `{"toolCallId":"c1"}`,
		}, {
			name: "null",
			in:   `{"toolCallId":"c1","content":null}`,
			want: ToolCallUpdate{ToolCallID: "c1"},
		}})
	})

	t.Run("ToolCallUpdate.locations", func(t *testing.T) {
		rulesRun(t, []rulesCase[ToolCallUpdate]{{
			name: "bad items mixed with good ones",
			in:   `{"toolCallId":"c1","locations":[{"path":"/a"},{"line":3},{"path":"/b","line":"x"},{"path":7},{"path":"/c","line":2}]}`,
			want: ToolCallUpdate{ToolCallID: "c1", Locations: []ToolCallLocation{
				{Path: "/a"},
				{Path: "/b"},
				{Path: "/c", Line: rulesPtr(uint32(2))},
			}},
			enc: `{"toolCallId":"c1","locations":[{"path":"/a"},{"path":"/b"},{"path":"/c","line":2}]}`,
		}})
	})

	t.Run("ToolCall.locations", func(t *testing.T) {
		rulesRun(t, []rulesCase[ToolCall]{{
			name: "bad items mixed with good ones",
			in:   `{"toolCallId":"c1","title":"T","locations":[false,{"path":"/a"},{}]}`,
			want: ToolCall{ToolCallID: "c1", Title: "T", Locations: []ToolCallLocation{{Path: "/a"}}},
		}, {
			name: "not an array",
			in:   `{"toolCallId":"c1","title":"T","locations":"/a"}`,
			want: ToolCall{ToolCallID: "c1", Title: "T", Locations: []ToolCallLocation{}},
		}})
	})

	t.Run("Annotations.audience", func(t *testing.T) {
		// Role is a closed enum in v1.
		rulesRun(t, []rulesCase[Annotations]{{
			name:  "valid",
			in:    `{"audience":["user","assistant"]}`,
			want:  Annotations{Audience: []Role{RoleUser, RoleAssistant}},
			valid: true,
		}, {
			name: "bad items mixed with good ones",
			in:   `{"audience":["user","robot",5,{"role":"user"},"assistant"]}`,
			want: Annotations{Audience: []Role{RoleUser, RoleAssistant}},
			enc:  `{"audience":["user","assistant"]}`,
		}, {
			name: "null item",
			in:   `{"audience":[null,"user"]}`,
			want: Annotations{Audience: []Role{RoleUser}},
		}, {
			name: "not an array",
			in:   `{"audience":"user"}`,
			want: Annotations{},
			enc:  `{}`,
		}})
	})

	t.Run("SessionInfo.additionalDirectories", func(t *testing.T) {
		rulesRun(t, []rulesCase[SessionInfo]{{
			name:  "valid",
			in:    `{"sessionId":"s","cwd":"/w","additionalDirectories":["/a","/b"]}`,
			want:  SessionInfo{SessionID: "s", Cwd: "/w", AdditionalDirectories: []string{"/a", "/b"}},
			valid: true,
		}, {
			name: "bad items mixed with good ones",
			in:   `{"sessionId":"s","cwd":"/w","additionalDirectories":["/a",5,{"path":"/x"},["/y"],true,"/b"]}`,
			want: SessionInfo{SessionID: "s", Cwd: "/w", AdditionalDirectories: []string{"/a", "/b"}},
			enc:  `{"sessionId":"s","cwd":"/w","additionalDirectories":["/a","/b"]}`,
		}, {
			name: "null item",
			in:   `{"sessionId":"s","cwd":"/w","additionalDirectories":["/a",null,"/b"]}`,
			want: SessionInfo{SessionID: "s", Cwd: "/w", AdditionalDirectories: []string{"/a", "/b"}},
			enc:  `{"sessionId":"s","cwd":"/w","additionalDirectories":["/a","/b"]}`,
		}, {
			name: "not an array",
			in:   `{"sessionId":"s","cwd":"/w","additionalDirectories":"/a"}`,
			want: SessionInfo{SessionID: "s", Cwd: "/w", AdditionalDirectories: []string{}},
			enc:  `{"sessionId":"s","cwd":"/w","additionalDirectories":[]}`,
		}})
	})

	t.Run("ListSessionsResponse.sessions", func(t *testing.T) {
		rulesRun(t, []rulesCase[ListSessionsResponse]{{
			name: "bad items mixed with good ones",
			in:   `{"sessions":[{"sessionId":"s1","cwd":"/w"},{"cwd":"/w"},"s2",{"sessionId":"s3","cwd":"/w","title":5},{"sessionId":4,"cwd":"/w"}]}`,
			want: ListSessionsResponse{Sessions: []SessionInfo{{SessionID: "s1", Cwd: "/w"}, {SessionID: "s3", Cwd: "/w"}}},
			enc:  `{"sessions":[{"sessionId":"s1","cwd":"/w"},{"sessionId":"s3","cwd":"/w"}]}`,
		}})
	})

	t.Run("SessionModeState.availableModes", func(t *testing.T) {
		rulesRun(t, []rulesCase[SessionModeState]{{
			name: "bad items mixed with good ones",
			in:   `{"currentModeId":"ask","availableModes":[{"id":"ask","name":"Ask"},{"id":"code"},{"id":"arch","name":"Architect","description":3}]}`,
			want: SessionModeState{CurrentModeID: "ask", AvailableModes: []SessionMode{{ID: "ask", Name: "Ask"}, {ID: "arch", Name: "Architect"}}},
		}})
	})
}

// x-deserialize-default-on-null: an explicit null leaves the empty value;
// anything else, a missing required key included, is checked as usual.
func TestRulesDefaultOnNull(t *testing.T) {
	stdio := MCPServer{Value: &MCPServerStdioVariant{MCPServerStdio{
		Name:    "fs",
		Command: "/bin/fs",
		Args:    []string{"-v"},
		Env:     []EnvVariable{{Name: "K", Value: "V"}},
	}}}

	// NewSessionRequest.mcpServers is required; additionalDirectories is optional.
	t.Run("NewSessionRequest", func(t *testing.T) {
		rulesRun(t, []rulesCase[NewSessionRequest]{{
			name:  "valid",
			in:    `{"cwd":"/w","additionalDirectories":["/x"],"mcpServers":[{"name":"fs","command":"/bin/fs","args":["-v"],"env":[{"name":"K","value":"V"}]}]}`,
			want:  NewSessionRequest{Cwd: "/w", AdditionalDirectories: []string{"/x"}, MCPServers: []MCPServer{stdio}},
			valid: true,
		}, {
			name:  "empty list",
			in:    `{"cwd":"/w","mcpServers":[]}`,
			want:  NewSessionRequest{Cwd: "/w", MCPServers: []MCPServer{}},
			valid: true,
		}, {
			name: "null required list",
			in:   `{"cwd":"/w","mcpServers":null}`,
			check: func(t *testing.T, got *NewSessionRequest) {
				rulesEmpty(t, "MCPServers", got.MCPServers)
				if got.Cwd != "/w" || got.AdditionalDirectories != nil {
					t.Errorf("got %s, want only cwd /w", rulesShow(*got))
				}
			},
		}, {
			name: "null optional list",
			in:   `{"cwd":"/w","mcpServers":[],"additionalDirectories":null}`,
			check: func(t *testing.T, got *NewSessionRequest) {
				rulesEmpty(t, "AdditionalDirectories", got.AdditionalDirectories)
				if got.Cwd != "/w" || got.MCPServers == nil || len(got.MCPServers) != 0 {
					t.Errorf("got %s, want cwd /w and no servers", rulesShow(*got))
				}
			},
		}, {
			name:  "missing required key",
			in:    `{"cwd":"/w"}`,
			err:   `object without "mcpServers"`,
			field: "mcpServers",
		}, {
			name:  "wrong type",
			in:    `{"cwd":"/w","mcpServers":"none"}`,
			err:   "cannot unmarshal string",
			field: "mcpServers",
		}, {
			name:  "object instead of a list",
			in:    `{"cwd":"/w","mcpServers":{}}`,
			err:   "cannot unmarshal object",
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
			in:    `{"cwd":"/w","mcpServers":[{"name":"fs","command":"/bin/fs","args":[]}]}`,
			err:   `object without "env"`,
			field: "mcpServers.env",
		}, {
			name:  "optional list wrong type",
			in:    `{"cwd":"/w","mcpServers":[],"additionalDirectories":"/x"}`,
			err:   "cannot unmarshal string",
			field: "additionalDirectories",
		}, {
			name:  "optional list with a bad item",
			in:    `{"cwd":"/w","mcpServers":[],"additionalDirectories":["/x",5]}`,
			err:   "cannot unmarshal number",
			field: "additionalDirectories",
		}, {
			name:  "missing required sibling",
			in:    `{"mcpServers":null}`,
			err:   `object without "cwd"`,
			field: "cwd",
		}})
	})

	// McpServerStdio.args and env are required.
	t.Run("MCPServerStdio", func(t *testing.T) {
		rulesRun(t, []rulesCase[MCPServerStdio]{{
			name:  "valid",
			in:    `{"name":"fs","command":"/bin/fs","args":["-v"],"env":[{"name":"K","value":"V"}]}`,
			want:  MCPServerStdio{Name: "fs", Command: "/bin/fs", Args: []string{"-v"}, Env: []EnvVariable{{Name: "K", Value: "V"}}},
			valid: true,
		}, {
			name: "null lists",
			in:   `{"name":"fs","command":"/bin/fs","args":null,"env":null}`,
			check: func(t *testing.T, got *MCPServerStdio) {
				rulesEmpty(t, "Args", got.Args)
				rulesEmpty(t, "Env", got.Env)
				if got.Name != "fs" || got.Command != "/bin/fs" {
					t.Errorf("got %s, want name fs and command /bin/fs", rulesShow(*got))
				}
			},
		}, {
			name:  "missing required key",
			in:    `{"name":"fs","command":"/bin/fs","env":[]}`,
			err:   `object without "args"`,
			field: "args",
		}, {
			name:  "missing other required key",
			in:    `{"name":"fs","command":"/bin/fs","args":null}`,
			err:   `object without "env"`,
			field: "env",
		}, {
			name:  "wrong type",
			in:    `{"name":"fs","command":"/bin/fs","args":"-v","env":[]}`,
			err:   "cannot unmarshal string",
			field: "args",
		}, {
			name:  "bad item is not dropped",
			in:    `{"name":"fs","command":"/bin/fs","args":["-v",1],"env":[]}`,
			err:   "cannot unmarshal number",
			field: "args",
		}})
	})

	// CreateTerminalRequest.args and env are optional.
	t.Run("CreateTerminalRequest", func(t *testing.T) {
		rulesRun(t, []rulesCase[CreateTerminalRequest]{{
			name:  "valid",
			in:    `{"sessionId":"s","command":"ls","args":["-l"],"env":[{"name":"K","value":"V"}]}`,
			want:  CreateTerminalRequest{SessionID: "s", Command: "ls", Args: []string{"-l"}, Env: []EnvVariable{{Name: "K", Value: "V"}}},
			valid: true,
		}, {
			name:  "absent",
			in:    `{"sessionId":"s","command":"ls"}`,
			want:  CreateTerminalRequest{SessionID: "s", Command: "ls"},
			valid: true,
		}, {
			name: "null",
			in:   `{"sessionId":"s","command":"ls","args":null,"env":null}`,
			check: func(t *testing.T, got *CreateTerminalRequest) {
				rulesEmpty(t, "Args", got.Args)
				rulesEmpty(t, "Env", got.Env)
				if got.SessionID != "s" || got.Command != "ls" {
					t.Errorf("got %s, want session s and command ls", rulesShow(*got))
				}
			},
		}, {
			name:  "wrong type",
			in:    `{"sessionId":"s","command":"ls","env":{"K":"V"}}`,
			err:   "cannot unmarshal object",
			field: "env",
		}, {
			name:  "item without a required member",
			in:    `{"sessionId":"s","command":"ls","env":[{"name":"K"}]}`,
			err:   `object without "value"`,
			field: "env.value",
		}, {
			name:  "missing required sibling",
			in:    `{"sessionId":"s","env":null}`,
			err:   `object without "command"`,
			field: "command",
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
			{name: "all present", in: `{"content":"a","priority":"high","status":"pending"}`, want: rulesPlanEntry("a", PlanEntryPriorityHigh, PlanEntryStatusPending), valid: true},
		})
	})
	t.Run("RequestPermissionRequest", func(t *testing.T) {
		rulesRun(t, []rulesCase[RequestPermissionRequest]{{
			name:  "in a nested struct",
			in:    `{"sessionId":"s","toolCall":{"title":"T"},"options":[]}`,
			err:   `object without "toolCallId"`,
			field: "toolCall.toolCallId",
		}, {
			name:  "in a list item",
			in:    `{"sessionId":"s","toolCall":{"toolCallId":"c1"},"options":[{"optionId":"o","kind":"allow_once"}]}`,
			err:   `object without "name"`,
			field: "options.name",
		}, {
			name:  "at the top",
			in:    `{"sessionId":"s","toolCall":{"toolCallId":"c1"}}`,
			err:   `object without "options"`,
			field: "options",
		}, {
			name:  "valid",
			in:    `{"sessionId":"s","toolCall":{"toolCallId":"c1"},"options":[{"optionId":"o","name":"Allow","kind":"allow_once"}]}`,
			want:  RequestPermissionRequest{SessionID: "s", ToolCall: ToolCallUpdate{ToolCallID: "c1"}, Options: []PermissionOption{{OptionID: "o", Name: "Allow", Kind: PermissionOptionKindAllowOnce}}},
			valid: true,
		}})
	})
	t.Run("SessionNotification", func(t *testing.T) {
		rulesRun(t, []rulesCase[SessionNotification]{{
			name:  "in a union variant",
			in:    `{"sessionId":"s","update":{"sessionUpdate":"plan"}}`,
			err:   `object without "entries"`,
			field: "update.entries",
		}, {
			name:  "at the top",
			in:    `{"update":{"sessionUpdate":"plan","entries":[]}}`,
			err:   `object without "sessionId"`,
			field: "sessionId",
		}})
	})
}

// Members without a decoding extension: a value of the wrong type, or null
// where the schema does not allow it, is an error.
func TestRulesWrongType(t *testing.T) {
	t.Run("NewSessionRequest", func(t *testing.T) {
		rulesRun(t, []rulesCase[NewSessionRequest]{
			{name: "number for string", in: `{"cwd":5,"mcpServers":[]}`, err: "cannot unmarshal number", field: "cwd"},
			{name: "null for string", in: `{"cwd":null,"mcpServers":[]}`, err: "cannot unmarshal null", field: "cwd"},
			{name: "array for string", in: `{"cwd":["/w"],"mcpServers":[]}`, err: "cannot unmarshal array", field: "cwd"},
		})
	})
	t.Run("UsageUpdate", func(t *testing.T) {
		rulesRun(t, []rulesCase[UsageUpdate]{
			{name: "string for integer", in: `{"used":"10","size":100}`, err: "cannot unmarshal string", field: "used"},
			{name: "negative for unsigned", in: `{"used":-1,"size":100}`, err: "cannot unmarshal number", field: "used"},
			{name: "fraction for integer", in: `{"used":1,"size":1.5}`, err: "cannot unmarshal number", field: "size"},
		})
	})
	t.Run("EnvVariable", func(t *testing.T) {
		rulesRun(t, []rulesCase[EnvVariable]{
			{name: "number for string", in: `{"name":"K","value":5}`, err: "cannot unmarshal number", field: "value"},
			{name: "bool for string", in: `{"name":true,"value":"V"}`, err: "cannot unmarshal bool", field: "name"},
			{name: "valid", in: `{"name":"K","value":"V"}`, want: EnvVariable{Name: "K", Value: "V"}, valid: true},
		})
	})
	t.Run("Cost", func(t *testing.T) {
		rulesRun(t, []rulesCase[Cost]{
			{name: "string for number", in: `{"amount":"1","currency":"USD"}`, err: "cannot unmarshal string", field: "amount"},
			{name: "object for string", in: `{"amount":1,"currency":{}}`, err: "cannot unmarshal object", field: "currency"},
		})
	})
}

// v1 enums are closed: a value the schema does not list is an error, unless
// the member defaults on error (see TestRulesDefaultOnError).
func TestRulesClosedEnums(t *testing.T) {
	t.Run("PlanEntry", func(t *testing.T) {
		rulesRun(t, []rulesCase[PlanEntry]{
			{name: "unknown priority", in: `{"content":"a","priority":"urgent","status":"pending"}`, err: `unknown string "urgent"`, field: "priority"},
			{name: "unknown status", in: `{"content":"a","priority":"low","status":"blocked"}`, err: `unknown string "blocked"`, field: "status"},
			{name: "custom priority", in: `{"content":"a","priority":"_urgent","status":"pending"}`, err: `unknown string "_urgent"`, field: "priority"},
			{name: "empty priority", in: `{"content":"a","priority":"","status":"pending"}`, err: `unknown string ""`, field: "priority"},
			{name: "null priority", in: `{"content":"a","priority":null,"status":"pending"}`, err: "cannot unmarshal null", field: "priority"},
			{name: "number priority", in: `{"content":"a","priority":1,"status":"pending"}`, err: "cannot unmarshal number", field: "priority"},
			{name: "known values", in: `{"content":"a","priority":"medium","status":"in_progress"}`, want: rulesPlanEntry("a", PlanEntryPriorityMedium, PlanEntryStatusInProgress), valid: true},
		})
	})
	t.Run("PermissionOption", func(t *testing.T) {
		rulesRun(t, []rulesCase[PermissionOption]{
			{name: "unknown kind", in: `{"optionId":"o","name":"n","kind":"allow_sometimes"}`, err: `unknown string "allow_sometimes"`, field: "kind"},
			{name: "known kind", in: `{"optionId":"o","name":"n","kind":"reject_always"}`, want: PermissionOption{OptionID: "o", Name: "n", Kind: PermissionOptionKindRejectAlways}, valid: true},
		})
	})
	t.Run("PromptResponse", func(t *testing.T) {
		rulesRun(t, []rulesCase[PromptResponse]{
			{name: "unknown stop reason", in: `{"stopReason":"paused"}`, err: `unknown string "paused"`, field: "stopReason"},
			{name: "known stop reason", in: `{"stopReason":"end_turn"}`, want: PromptResponse{StopReason: StopReasonEndTurn}, valid: true},
		})
	})
	t.Run("ToolKind", func(t *testing.T) {
		rulesRun(t, []rulesCase[ToolKind]{
			{name: "unknown", in: `"teleport"`, err: `unknown string "teleport"`},
			{name: "known", in: `"switch_mode"`, want: ToolKindSwitchMode, valid: true},
		})
	})
	t.Run("ToolCallStatus", func(t *testing.T) {
		rulesRun(t, []rulesCase[ToolCallStatus]{
			{name: "unknown", in: `"paused"`, err: `unknown string "paused"`},
			{name: "known", in: `"failed"`, want: ToolCallStatusFailed, valid: true},
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
