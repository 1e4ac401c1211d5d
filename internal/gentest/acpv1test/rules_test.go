package acpv1test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// Tests of the decoding rules that the schema attaches to properties:
// x-deserialize-default-on-error, x-deserialize-skip-invalid-items and
// x-deserialize-default-on-null, and of the rules that hold without them:
// required members, type errors, closed enums and null-clears Nullable fields.
// Each case decodes the enclosing definition's Go type with json.Unmarshal.

// rulesPlanEntry returns a valid PlanEntry.
func rulesPlanEntry(content string, p acpv1.PlanEntryPriority, s acpv1.PlanEntryStatus) acpv1.PlanEntry {
	return acpv1.PlanEntry{Content: content, Priority: p, Status: s}
}

// x-deserialize-default-on-error: a present value that fails to decode leaves
// the type's default; a missing required key is still an error.
func TestRulesDefaultOnError(t *testing.T) {
	t.Run("ToolCallUpdate", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.ToolCallUpdate]{{
			Name: "valid",
			In:   `{"toolCallId":"c1","kind":"edit","status":"completed","title":"Edit","name":"editor","content":[{"type":"terminal","terminalId":"t1"}],"locations":[{"path":"/a","line":3}]}`,
			Want: acpv1.ToolCallUpdate{
				ToolCallID: "c1",
				Kind:       acpv1.Ptr(acpv1.ToolKindEdit),
				Status:     acpv1.Ptr(acpv1.ToolCallStatusCompleted),
				Title:      acpv1.Ptr("Edit"),
				Name:       acpv1.Ptr("editor"),
				Content:    []acpv1.ToolCallContent{{Value: &acpv1.ToolCallContentTerminal{Terminal: acpv1.Terminal{TerminalID: "t1"}}}},
				Locations:  []acpv1.ToolCallLocation{{Path: "/a", Line: acpv1.Ptr(uint32(3))}},
			},
			Valid: true,
		}, {
			Name: "title wrong type",
			In:   `{"toolCallId":"c1","title":5,"name":"n"}`,
			Want: acpv1.ToolCallUpdate{ToolCallID: "c1", Name: acpv1.Ptr("n")},
			Enc:  `{"toolCallId":"c1","name":"n"}`,
		}, {
			Name: "title null",
			In:   `{"toolCallId":"c1","title":null}`,
			Want: acpv1.ToolCallUpdate{ToolCallID: "c1"},
			Enc:  `{"toolCallId":"c1"}`,
		}, {
			Name: "kind unknown value of closed enum",
			In:   `{"toolCallId":"c1","kind":"teleport","title":"T"}`,
			Want: acpv1.ToolCallUpdate{ToolCallID: "c1", Title: acpv1.Ptr("T")},
			Enc:  `{"toolCallId":"c1","title":"T"}`,
		}, {
			Name: "kind wrong type",
			In:   `{"toolCallId":"c1","kind":["read"]}`,
			Want: acpv1.ToolCallUpdate{ToolCallID: "c1"},
		}, {
			Name: "status unknown value of closed enum",
			In:   `{"toolCallId":"c1","status":"paused","kind":"read"}`,
			Want: acpv1.ToolCallUpdate{ToolCallID: "c1", Kind: acpv1.Ptr(acpv1.ToolKindRead)},
			Enc:  `{"toolCallId":"c1","kind":"read"}`,
		}, {
			Name: "every defaulted member at once",
			In:   `{"toolCallId":"c1","kind":1,"status":{},"title":false,"name":[],"content":"x","locations":7}`,
			Want: acpv1.ToolCallUpdate{ToolCallID: "c1"},
			Enc:  `{"toolCallId":"c1"}`,
		}, {
			Name:  "missing required sibling",
			In:    `{"kind":"teleport","title":5}`,
			Err:   `object without "toolCallId"`,
			Field: "toolCallId",
		}, {
			Name:  "required sibling wrong type",
			In:    `{"toolCallId":5,"title":"T"}`,
			Err:   "cannot unmarshal number",
			Field: "toolCallId",
		}})
	})

	t.Run("ToolCall", func(t *testing.T) {
		// kind and status may not be null, but default on error.
		jsontest.RunCases(t, []jsontest.Case[acpv1.ToolCall]{{
			Name:  "valid",
			In:    `{"toolCallId":"c1","title":"T","kind":"execute","status":"pending"}`,
			Want:  acpv1.ToolCall{ToolCallID: "c1", Title: "T", Kind: acpv1.Ptr(acpv1.ToolKindExecute), Status: acpv1.Ptr(acpv1.ToolCallStatusPending)},
			Valid: true,
		}, {
			Name: "unknown values of closed enums",
			In:   `{"toolCallId":"c1","title":"T","kind":"teleport","status":"paused"}`,
			Want: acpv1.ToolCall{ToolCallID: "c1", Title: "T"},
			Enc:  `{"toolCallId":"c1","title":"T"}`,
		}, {
			Name: "null where not allowed",
			In:   `{"toolCallId":"c1","title":"T","kind":null,"status":null}`,
			Want: acpv1.ToolCall{ToolCallID: "c1", Title: "T"},
		}, {
			Name:  "missing required sibling",
			In:    `{"toolCallId":"c1","kind":"teleport"}`,
			Err:   `object without "title"`,
			Field: "title",
		}})
	})

	t.Run("InitializeResponse", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.InitializeResponse]{{
			Name: "valid",
			In:   `{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"promptCapabilities":{"image":true,"audio":false}},"agentInfo":{"name":"agent","version":"1.0"}}`,
			Want: acpv1.InitializeResponse{
				ProtocolVersion: 1,
				AgentCapabilities: &acpv1.AgentCapabilities{
					LoadSession:        acpv1.Ptr(true),
					PromptCapabilities: &acpv1.PromptCapabilities{Image: acpv1.Ptr(true), Audio: acpv1.Ptr(false)},
				},
				AgentInfo: &acpv1.Implementation{Name: "agent", Version: "1.0"},
			},
			Valid: true,
		}, {
			Name: "capabilities wrong type",
			In:   `{"protocolVersion":1,"agentCapabilities":"all"}`,
			Want: acpv1.InitializeResponse{ProtocolVersion: 1},
			Enc:  `{"protocolVersion":1}`,
		}, {
			Name: "capabilities null where not allowed",
			In:   `{"protocolVersion":1,"agentCapabilities":null}`,
			Want: acpv1.InitializeResponse{ProtocolVersion: 1},
		}, {
			Name: "capabilities with a bad inner member",
			In:   `{"protocolVersion":1,"agentCapabilities":{"loadSession":"yes"}}`,
			Want: acpv1.InitializeResponse{ProtocolVersion: 1, AgentCapabilities: &acpv1.AgentCapabilities{}},
			Enc:  `{"protocolVersion":1,"agentCapabilities":{}}`,
		}, {
			Name: "capabilities with bad nested members",
			In:   `{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"promptCapabilities":{"image":"yes","audio":true},"mcpCapabilities":5}}`,
			Want: acpv1.InitializeResponse{ProtocolVersion: 1, AgentCapabilities: &acpv1.AgentCapabilities{
				LoadSession:        acpv1.Ptr(true),
				PromptCapabilities: &acpv1.PromptCapabilities{Audio: acpv1.Ptr(true)},
			}},
			Enc: `{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"promptCapabilities":{"audio":true}}}`,
		}, {
			Name: "info with a bad inner member",
			In:   `{"protocolVersion":1,"agentInfo":{"name":5,"version":"1.0"}}`,
			Want: acpv1.InitializeResponse{ProtocolVersion: 1},
			Enc:  `{"protocolVersion":1}`,
		}, {
			Name: "info without a required inner member",
			In:   `{"protocolVersion":1,"agentInfo":{"version":"1.0"}}`,
			Want: acpv1.InitializeResponse{ProtocolVersion: 1},
		}, {
			Name:  "missing required sibling",
			In:    `{"agentCapabilities":"all","agentInfo":5}`,
			Err:   `object without "protocolVersion"`,
			Field: "protocolVersion",
		}})
	})

	t.Run("InitializeRequest", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.InitializeRequest]{{
			Name:  "valid",
			In:    `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":false},"terminal":true},"clientInfo":{"name":"c","version":"2"}}`,
			Want:  acpv1.InitializeRequest{ProtocolVersion: 1, ClientCapabilities: &acpv1.ClientCapabilities{Fs: &acpv1.FileSystemCapabilities{ReadTextFile: acpv1.Ptr(true), WriteTextFile: acpv1.Ptr(false)}, Terminal: acpv1.Ptr(true)}, ClientInfo: &acpv1.Implementation{Name: "c", Version: "2"}},
			Valid: true,
		}, {
			Name: "bad nested capabilities",
			In:   `{"protocolVersion":1,"clientCapabilities":{"fs":[],"terminal":"yes"},"clientInfo":{"name":"c","version":2}}`,
			Want: acpv1.InitializeRequest{ProtocolVersion: 1, ClientCapabilities: &acpv1.ClientCapabilities{}},
			Enc:  `{"protocolVersion":1,"clientCapabilities":{}}`,
		}})
	})

	t.Run("UsageUpdate", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.UsageUpdate]{{
			Name:  "valid",
			In:    `{"used":10,"size":100,"cost":{"amount":0.5,"currency":"USD"}}`,
			Want:  acpv1.UsageUpdate{Used: 10, Size: 100, Cost: &acpv1.Cost{Amount: 0.5, Currency: "USD"}},
			Valid: true,
		}, {
			Name: "cost with a bad inner member",
			In:   `{"used":10,"size":100,"cost":{"amount":"lots","currency":"USD"}}`,
			Want: acpv1.UsageUpdate{Used: 10, Size: 100},
			Enc:  `{"used":10,"size":100}`,
		}, {
			Name: "cost without a required inner member",
			In:   `{"used":10,"size":100,"cost":{"amount":1}}`,
			Want: acpv1.UsageUpdate{Used: 10, Size: 100},
		}, {
			Name:  "missing required sibling",
			In:    `{"size":100,"cost":7}`,
			Err:   `object without "used"`,
			Field: "used",
		}})
	})

	t.Run("ResourceLink", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.ResourceLink]{{
			Name:  "valid",
			In:    `{"name":"f","uri":"file:///f","size":12,"mimeType":"text/plain","annotations":{"audience":["user"],"priority":0.5}}`,
			Want:  acpv1.ResourceLink{Name: "f", URI: "file:///f", Size: acpv1.Ptr(int64(12)), MimeType: acpv1.Ptr("text/plain"), Annotations: &acpv1.Annotations{Audience: []acpv1.Role{acpv1.RoleUser}, Priority: acpv1.Ptr(0.5)}},
			Valid: true,
		}, {
			Name: "integer wrong type",
			In:   `{"name":"f","uri":"file:///f","size":"12"}`,
			Want: acpv1.ResourceLink{Name: "f", URI: "file:///f"},
			Enc:  `{"name":"f","uri":"file:///f"}`,
		}, {
			Name: "integer with a fraction",
			In:   `{"name":"f","uri":"file:///f","size":1.5}`,
			Want: acpv1.ResourceLink{Name: "f", URI: "file:///f"},
		}, {
			Name: "annotations with bad inner members",
			In:   `{"name":"f","uri":"file:///f","annotations":{"priority":"high","lastModified":5,"audience":"user"}}`,
			Want: acpv1.ResourceLink{Name: "f", URI: "file:///f", Annotations: &acpv1.Annotations{}},
			Enc:  `{"name":"f","uri":"file:///f","annotations":{}}`,
		}, {
			Name: "annotations wrong type",
			In:   `{"name":"f","uri":"file:///f","annotations":[1]}`,
			Want: acpv1.ResourceLink{Name: "f", URI: "file:///f"},
		}, {
			Name:  "missing required sibling",
			In:    `{"name":"f","size":"12"}`,
			Err:   `object without "uri"`,
			Field: "uri",
		}})
	})

	t.Run("NewSessionResponse", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.NewSessionResponse]{{
			Name:  "valid",
			In:    `{"sessionId":"s","modes":{"currentModeId":"ask","availableModes":[{"id":"ask","name":"Ask"}]}}`,
			Want:  acpv1.NewSessionResponse{SessionID: "s", Modes: &acpv1.SessionModeState{CurrentModeID: "ask", AvailableModes: []acpv1.SessionMode{{ID: "ask", Name: "Ask"}}}},
			Valid: true,
		}, {
			Name: "nested value without a required member",
			In:   `{"sessionId":"s","modes":{"currentModeId":"ask"}}`,
			Want: acpv1.NewSessionResponse{SessionID: "s"},
			Enc:  `{"sessionId":"s"}`,
		}, {
			Name: "nested value with a bad required member",
			In:   `{"sessionId":"s","modes":{"currentModeId":5,"availableModes":[]}}`,
			Want: acpv1.NewSessionResponse{SessionID: "s"},
		}})
	})

	// Plan.entries is required and defaults on error.
	t.Run("Plan", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.Plan]{{
			Name:  "valid",
			In:    `{"entries":[{"content":"a","priority":"high","status":"pending"}]}`,
			Want:  acpv1.Plan{Entries: []acpv1.PlanEntry{rulesPlanEntry("a", acpv1.PlanEntryPriorityHigh, acpv1.PlanEntryStatusPending)}},
			Valid: true,
		}, {
			Name: "wrong type",
			In:   `{"entries":"none"}`,
			Want: acpv1.Plan{Entries: []acpv1.PlanEntry{}},
		}, {
			Name: "null",
			In:   `{"entries":null}`,
			Want: acpv1.Plan{Entries: []acpv1.PlanEntry{}},
		}, {
			Name:  "missing required key",
			In:    `{}`,
			Err:   `object without "entries"`,
			Field: "entries",
		}, {
			Name:  "missing required key beside other members",
			In:    `{"_meta":{"k":1}}`,
			Err:   `object without "entries"`,
			Field: "entries",
		}})
	})

	t.Run("ListSessionsResponse", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.ListSessionsResponse]{{
			Name: "required list wrong type",
			In:   `{"sessions":{"sessionId":"s"},"nextCursor":5}`,
			Want: acpv1.ListSessionsResponse{Sessions: []acpv1.SessionInfo{}},
		}, {
			Name:  "missing required key",
			In:    `{"nextCursor":"c"}`,
			Err:   `object without "sessions"`,
			Field: "sessions",
		}})
	})

	t.Run("SessionModeState", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.SessionModeState]{{
			Name: "required list wrong type",
			In:   `{"currentModeId":"ask","availableModes":true}`,
			Want: acpv1.SessionModeState{CurrentModeID: "ask", AvailableModes: []acpv1.SessionMode{}},
		}, {
			Name:  "missing required key",
			In:    `{"currentModeId":"ask"}`,
			Err:   `object without "availableModes"`,
			Field: "availableModes",
		}})
	})
}

// x-deserialize-skip-invalid-items (always with default-on-error in v1):
// elements that fail to decode are dropped and the rest kept in order; a
// value that is not an array leaves the default.
func TestRulesSkipInvalidItems(t *testing.T) {
	a := rulesPlanEntry("a", acpv1.PlanEntryPriorityHigh, acpv1.PlanEntryStatusPending)
	c := rulesPlanEntry("c", acpv1.PlanEntryPriorityLow, acpv1.PlanEntryStatusCompleted)

	t.Run("Plan.entries", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.Plan]{{
			Name:  "valid",
			In:    `{"entries":[{"content":"a","priority":"high","status":"pending"},{"content":"c","priority":"low","status":"completed"}]}`,
			Want:  acpv1.Plan{Entries: []acpv1.PlanEntry{a, c}},
			Valid: true,
		}, {
			Name:  "empty",
			In:    `{"entries":[]}`,
			Want:  acpv1.Plan{Entries: []acpv1.PlanEntry{}},
			Valid: true,
		}, {
			Name: "bad items mixed with good ones",
			In: `{"entries":[` +
				`{"content":"a","priority":"high","status":"pending"},` +
				`{"content":"b","priority":"urgent","status":"pending"},` +
				`{"priority":"low","status":"pending"},` +
				`{"content":5,"priority":"low","status":"pending"},` +
				`"entry",7,[],` +
				`{"content":"c","priority":"low","status":"completed"}]}`,
			Want: acpv1.Plan{Entries: []acpv1.PlanEntry{a, c}},
			Enc:  `{"entries":[{"content":"a","priority":"high","status":"pending"},{"content":"c","priority":"low","status":"completed"}]}`,
		}, {
			// The item after a dropped one is decoded where that one was,
			// which keeps none of the members it had read.
			Name: "item after a dropped one",
			In: `{"entries":[` +
				`{"content":"b","_meta":{"k":1},"priority":"urgent","status":"pending"},` +
				`{"content":"c","priority":"low","status":"completed"}]}`,
			Want: acpv1.Plan{Entries: []acpv1.PlanEntry{c}},
			Enc:  `{"entries":[{"content":"c","priority":"low","status":"completed"}]}`,
		}, {
			Name: "null item",
			In:   `{"entries":[null,{"content":"a","priority":"high","status":"pending"}]}`,
			Want: acpv1.Plan{Entries: []acpv1.PlanEntry{a}},
		}, {
			Name: "only bad items",
			In:   `{"entries":[1,{"content":"b"}]}`,
			Want: acpv1.Plan{Entries: []acpv1.PlanEntry{}},
			Enc:  `{"entries":[]}`,
		}, {
			Name: "not an array",
			In:   `{"entries":{"content":"a","priority":"high","status":"pending"}}`,
			Want: acpv1.Plan{Entries: []acpv1.PlanEntry{}},
		}})
	})

	t.Run("ToolCallUpdate.content", func(t *testing.T) {
		t1 := acpv1.ToolCallContent{Value: &acpv1.ToolCallContentTerminal{Terminal: acpv1.Terminal{TerminalID: "t1"}}}
		t2 := acpv1.ToolCallContent{Value: &acpv1.ToolCallContentTerminal{Terminal: acpv1.Terminal{TerminalID: "t2"}}}
		jsontest.RunCases(t, []jsontest.Case[acpv1.ToolCallUpdate]{{
			Name: "bad items mixed with good ones",
			In:   `{"toolCallId":"c1","content":[{"type":"terminal","terminalId":"t1"},{"type":"terminal"},{"type":"diff","path":"/a"},5,"x",{"type":"terminal","terminalId":"t2"}]}`,
			Want: acpv1.ToolCallUpdate{ToolCallID: "c1", Content: []acpv1.ToolCallContent{t1, t2}},
			Enc:  `{"toolCallId":"c1","content":[{"type":"terminal","terminalId":"t1"},{"type":"terminal","terminalId":"t2"}]}`,
		}, {
			Name: "null item",
			In:   `{"toolCallId":"c1","content":[{"type":"terminal","terminalId":"t1"},null]}`,
			Want: acpv1.ToolCallUpdate{ToolCallID: "c1", Content: []acpv1.ToolCallContent{t1}},
			Enc:  `{"toolCallId":"c1","content":[{"type":"terminal","terminalId":"t1"}]}`,
		}, {
			Name: "not an array",
			In:   `{"toolCallId":"c1","content":{"type":"terminal","terminalId":"t1"}}`,
			Want: acpv1.ToolCallUpdate{ToolCallID: "c1"},
			Enc:  `{"toolCallId":"c1"}`,
		}, {
			Name: "null",
			In:   `{"toolCallId":"c1","content":null}`,
			Want: acpv1.ToolCallUpdate{ToolCallID: "c1"},
		}})
	})

	t.Run("ToolCallUpdate.locations", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.ToolCallUpdate]{{
			Name: "bad items mixed with good ones",
			In:   `{"toolCallId":"c1","locations":[{"path":"/a"},{"line":3},{"path":"/b","line":"x"},{"path":7},{"path":"/c","line":2}]}`,
			Want: acpv1.ToolCallUpdate{ToolCallID: "c1", Locations: []acpv1.ToolCallLocation{
				{Path: "/a"},
				{Path: "/b"},
				{Path: "/c", Line: acpv1.Ptr(uint32(2))},
			}},
			Enc: `{"toolCallId":"c1","locations":[{"path":"/a"},{"path":"/b"},{"path":"/c","line":2}]}`,
		}})
	})

	t.Run("ToolCall.locations", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.ToolCall]{{
			Name: "bad items mixed with good ones",
			In:   `{"toolCallId":"c1","title":"T","locations":[false,{"path":"/a"},{}]}`,
			Want: acpv1.ToolCall{ToolCallID: "c1", Title: "T", Locations: []acpv1.ToolCallLocation{{Path: "/a"}}},
		}, {
			Name: "not an array",
			In:   `{"toolCallId":"c1","title":"T","locations":"/a"}`,
			Want: acpv1.ToolCall{ToolCallID: "c1", Title: "T", Locations: []acpv1.ToolCallLocation{}},
		}})
	})

	t.Run("Annotations.audience", func(t *testing.T) {
		// Role is a closed enum in v1.
		jsontest.RunCases(t, []jsontest.Case[acpv1.Annotations]{{
			Name:  "valid",
			In:    `{"audience":["user","assistant"]}`,
			Want:  acpv1.Annotations{Audience: []acpv1.Role{acpv1.RoleUser, acpv1.RoleAssistant}},
			Valid: true,
		}, {
			Name: "bad items mixed with good ones",
			In:   `{"audience":["user","robot",5,{"role":"user"},"assistant"]}`,
			Want: acpv1.Annotations{Audience: []acpv1.Role{acpv1.RoleUser, acpv1.RoleAssistant}},
			Enc:  `{"audience":["user","assistant"]}`,
		}, {
			Name: "null item",
			In:   `{"audience":[null,"user"]}`,
			Want: acpv1.Annotations{Audience: []acpv1.Role{acpv1.RoleUser}},
		}, {
			Name: "not an array",
			In:   `{"audience":"user"}`,
			Want: acpv1.Annotations{},
			Enc:  `{}`,
		}})
	})

	t.Run("SessionInfo.additionalDirectories", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.SessionInfo]{{
			Name:  "valid",
			In:    `{"sessionId":"s","cwd":"/w","additionalDirectories":["/a","/b"]}`,
			Want:  acpv1.SessionInfo{SessionID: "s", Cwd: "/w", AdditionalDirectories: []string{"/a", "/b"}},
			Valid: true,
		}, {
			Name: "bad items mixed with good ones",
			In:   `{"sessionId":"s","cwd":"/w","additionalDirectories":["/a",5,{"path":"/x"},["/y"],true,"/b"]}`,
			Want: acpv1.SessionInfo{SessionID: "s", Cwd: "/w", AdditionalDirectories: []string{"/a", "/b"}},
			Enc:  `{"sessionId":"s","cwd":"/w","additionalDirectories":["/a","/b"]}`,
		}, {
			Name: "null item",
			In:   `{"sessionId":"s","cwd":"/w","additionalDirectories":["/a",null,"/b"]}`,
			Want: acpv1.SessionInfo{SessionID: "s", Cwd: "/w", AdditionalDirectories: []string{"/a", "/b"}},
			Enc:  `{"sessionId":"s","cwd":"/w","additionalDirectories":["/a","/b"]}`,
		}, {
			Name: "not an array",
			In:   `{"sessionId":"s","cwd":"/w","additionalDirectories":"/a"}`,
			Want: acpv1.SessionInfo{SessionID: "s", Cwd: "/w", AdditionalDirectories: []string{}},
			Enc:  `{"sessionId":"s","cwd":"/w","additionalDirectories":[]}`,
		}})
	})

	t.Run("SessionModeState.availableModes", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.SessionModeState]{{
			Name: "bad items mixed with good ones",
			In:   `{"currentModeId":"ask","availableModes":[{"id":"ask","name":"Ask"},{"id":"code"},{"id":"arch","name":"Architect","description":3}]}`,
			Want: acpv1.SessionModeState{CurrentModeID: "ask", AvailableModes: []acpv1.SessionMode{{ID: "ask", Name: "Ask"}, {ID: "arch", Name: "Architect"}}},
		}})
	})
}

// x-deserialize-default-on-null: an explicit null leaves the empty value;
// anything else, a missing required key included, is checked as usual.
func TestRulesDefaultOnNull(t *testing.T) {
	stdio := acpv1.MCPServer{Value: &acpv1.MCPServerStdioVariant{MCPServerStdio: acpv1.MCPServerStdio{
		Name:    "fs",
		Command: "/bin/fs",
		Args:    []string{"-v"},
		Env:     []acpv1.EnvVariable{{Name: "K", Value: "V"}},
	}}}

	// NewSessionRequest.mcpServers is required; additionalDirectories is optional.
	t.Run("NewSessionRequest", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.NewSessionRequest]{{
			Name:  "valid",
			In:    `{"cwd":"/w","additionalDirectories":["/x"],"mcpServers":[{"name":"fs","command":"/bin/fs","args":["-v"],"env":[{"name":"K","value":"V"}]}]}`,
			Want:  acpv1.NewSessionRequest{Cwd: "/w", AdditionalDirectories: []string{"/x"}, MCPServers: []acpv1.MCPServer{stdio}},
			Valid: true,
		}, {
			Name:  "empty list",
			In:    `{"cwd":"/w","mcpServers":[]}`,
			Want:  acpv1.NewSessionRequest{Cwd: "/w", MCPServers: []acpv1.MCPServer{}},
			Valid: true,
		}, {
			Name: "null required list",
			In:   `{"cwd":"/w","mcpServers":null}`,
			Check: func(t *testing.T, got *acpv1.NewSessionRequest) {
				jsontest.AssertEmpty(t, "MCPServers", got.MCPServers)
				if got.Cwd != "/w" || got.AdditionalDirectories != nil {
					t.Errorf("got %s, want only cwd /w", jsontest.Show(*got))
				}
			},
		}, {
			Name: "null optional list",
			In:   `{"cwd":"/w","mcpServers":[],"additionalDirectories":null}`,
			Check: func(t *testing.T, got *acpv1.NewSessionRequest) {
				jsontest.AssertEmpty(t, "AdditionalDirectories", got.AdditionalDirectories)
				if got.Cwd != "/w" || got.MCPServers == nil || len(got.MCPServers) != 0 {
					t.Errorf("got %s, want cwd /w and no servers", jsontest.Show(*got))
				}
			},
		}, {
			Name:  "missing required key",
			In:    `{"cwd":"/w"}`,
			Err:   `object without "mcpServers"`,
			Field: "mcpServers",
		}, {
			Name:  "object instead of a list",
			In:    `{"cwd":"/w","mcpServers":{}}`,
			Err:   "cannot unmarshal object",
			Field: "mcpServers",
		}, {
			Name:  "item without a required member is not dropped",
			In:    `{"cwd":"/w","mcpServers":[{"name":"fs","command":"/bin/fs","args":[]}]}`,
			Err:   `object without "env"`,
			Field: "mcpServers.env",
		}, {
			Name:  "optional list wrong type",
			In:    `{"cwd":"/w","mcpServers":[],"additionalDirectories":"/x"}`,
			Err:   "cannot unmarshal string",
			Field: "additionalDirectories",
		}, {
			Name:  "optional list with a bad item",
			In:    `{"cwd":"/w","mcpServers":[],"additionalDirectories":["/x",5]}`,
			Err:   "cannot unmarshal number",
			Field: "additionalDirectories",
		}})
	})

	// McpServerStdio.args and env are required.
	t.Run("MCPServerStdio", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.MCPServerStdio]{{
			Name:  "missing required key",
			In:    `{"name":"fs","command":"/bin/fs","env":[]}`,
			Err:   `object without "args"`,
			Field: "args",
		}, {
			Name:  "missing other required key",
			In:    `{"name":"fs","command":"/bin/fs","args":null}`,
			Err:   `object without "env"`,
			Field: "env",
		}, {
			Name:  "wrong type",
			In:    `{"name":"fs","command":"/bin/fs","args":"-v","env":[]}`,
			Err:   "cannot unmarshal string",
			Field: "args",
		}, {
			Name:  "bad item is not dropped",
			In:    `{"name":"fs","command":"/bin/fs","args":["-v",1],"env":[]}`,
			Err:   "cannot unmarshal number",
			Field: "args",
		}})
	})

	// CreateTerminalRequest.args and env are optional.
	t.Run("CreateTerminalRequest", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.CreateTerminalRequest]{{
			Name:  "valid",
			In:    `{"sessionId":"s","command":"ls","args":["-l"],"env":[{"name":"K","value":"V"}]}`,
			Want:  acpv1.CreateTerminalRequest{SessionID: "s", Command: "ls", Args: []string{"-l"}, Env: []acpv1.EnvVariable{{Name: "K", Value: "V"}}},
			Valid: true,
		}, {
			Name:  "absent",
			In:    `{"sessionId":"s","command":"ls"}`,
			Want:  acpv1.CreateTerminalRequest{SessionID: "s", Command: "ls"},
			Valid: true,
		}, {
			Name: "null",
			In:   `{"sessionId":"s","command":"ls","args":null,"env":null}`,
			Check: func(t *testing.T, got *acpv1.CreateTerminalRequest) {
				jsontest.AssertEmpty(t, "Args", got.Args)
				jsontest.AssertEmpty(t, "Env", got.Env)
				if got.SessionID != "s" || got.Command != "ls" {
					t.Errorf("got %s, want session s and command ls", jsontest.Show(*got))
				}
			},
		}, {
			Name:  "wrong type",
			In:    `{"sessionId":"s","command":"ls","env":{"K":"V"}}`,
			Err:   "cannot unmarshal object",
			Field: "env",
		}, {
			Name:  "item without a required member",
			In:    `{"sessionId":"s","command":"ls","env":[{"name":"K"}]}`,
			Err:   `object without "value"`,
			Field: "env.value",
		}, {
			Name:  "missing required sibling",
			In:    `{"sessionId":"s","env":null}`,
			Err:   `object without "command"`,
			Field: "command",
		}})
	})
}

// Required members: a missing key is an *json.UnmarshalTypeError whose Field
// is the JSON path of the member.
func TestRulesRequired(t *testing.T) {
	t.Run("RequestPermissionRequest", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.RequestPermissionRequest]{{
			Name:  "in a nested struct",
			In:    `{"sessionId":"s","toolCall":{"title":"T"},"options":[]}`,
			Err:   `object without "toolCallId"`,
			Field: "toolCall.toolCallId",
		}, {
			Name:  "in a list item",
			In:    `{"sessionId":"s","toolCall":{"toolCallId":"c1"},"options":[{"optionId":"o","kind":"allow_once"}]}`,
			Err:   `object without "name"`,
			Field: "options.name",
		}, {
			Name:  "at the top",
			In:    `{"sessionId":"s","toolCall":{"toolCallId":"c1"}}`,
			Err:   `object without "options"`,
			Field: "options",
		}, {
			Name:  "valid",
			In:    `{"sessionId":"s","toolCall":{"toolCallId":"c1"},"options":[{"optionId":"o","name":"Allow","kind":"allow_once"}]}`,
			Want:  acpv1.RequestPermissionRequest{SessionID: "s", ToolCall: acpv1.ToolCallUpdate{ToolCallID: "c1"}, Options: []acpv1.PermissionOption{{OptionID: "o", Name: "Allow", Kind: acpv1.PermissionOptionKindAllowOnce}}},
			Valid: true,
		}})
	})
	t.Run("SessionNotification", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.SessionNotification]{{
			Name:  "in a union variant",
			In:    `{"sessionId":"s","update":{"sessionUpdate":"plan"}}`,
			Err:   `object without "entries"`,
			Field: "update.entries",
		}, {
			Name:  "at the top",
			In:    `{"update":{"sessionUpdate":"plan","entries":[]}}`,
			Err:   `object without "sessionId"`,
			Field: "sessionId",
		}})
	})
}

// Members without a decoding extension: a value of the wrong type, or null
// where the schema does not allow it, is an error.
func TestRulesWrongType(t *testing.T) {
	t.Run("NewSessionRequest", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.NewSessionRequest]{
			{Name: "number for string", In: `{"cwd":5,"mcpServers":[]}`, Err: "cannot unmarshal number", Field: "cwd"},
			{Name: "null for string", In: `{"cwd":null,"mcpServers":[]}`, Err: "cannot unmarshal null", Field: "cwd"},
			{Name: "array for string", In: `{"cwd":["/w"],"mcpServers":[]}`, Err: "cannot unmarshal array", Field: "cwd"},
		})
	})
	t.Run("UsageUpdate", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.UsageUpdate]{
			{Name: "string for integer", In: `{"used":"10","size":100}`, Err: "cannot unmarshal string", Field: "used"},
			{Name: "negative for unsigned", In: `{"used":-1,"size":100}`, Err: "cannot unmarshal number", Field: "used"},
			{Name: "fraction for integer", In: `{"used":1,"size":1.5}`, Err: "cannot unmarshal number", Field: "size"},
		})
	})
	t.Run("EnvVariable", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.EnvVariable]{
			{Name: "number for string", In: `{"name":"K","value":5}`, Err: "cannot unmarshal number", Field: "value"},
			{Name: "bool for string", In: `{"name":true,"value":"V"}`, Err: "cannot unmarshal bool", Field: "name"},
			{Name: "valid", In: `{"name":"K","value":"V"}`, Want: acpv1.EnvVariable{Name: "K", Value: "V"}, Valid: true},
		})
	})
	t.Run("Cost", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.Cost]{
			{Name: "string for number", In: `{"amount":"1","currency":"USD"}`, Err: "cannot unmarshal string", Field: "amount"},
			{Name: "object for string", In: `{"amount":1,"currency":{}}`, Err: "cannot unmarshal object", Field: "currency"},
		})
	})
}

// v1 enums are closed: a value the schema does not list is an error, unless
// the member defaults on error (see TestRulesDefaultOnError).
func TestRulesClosedEnums(t *testing.T) {
	t.Run("PlanEntry", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.PlanEntry]{
			{Name: "unknown priority", In: `{"content":"a","priority":"urgent","status":"pending"}`, Err: `unknown string "urgent"`, Field: "priority"},
			{Name: "unknown status", In: `{"content":"a","priority":"low","status":"blocked"}`, Err: `unknown string "blocked"`, Field: "status"},
			{Name: "custom priority", In: `{"content":"a","priority":"_urgent","status":"pending"}`, Err: `unknown string "_urgent"`, Field: "priority"},
			{Name: "empty priority", In: `{"content":"a","priority":"","status":"pending"}`, Err: `unknown string ""`, Field: "priority"},
			{Name: "null priority", In: `{"content":"a","priority":null,"status":"pending"}`, Err: "cannot unmarshal null", Field: "priority"},
			{Name: "number priority", In: `{"content":"a","priority":1,"status":"pending"}`, Err: "cannot unmarshal number", Field: "priority"},
			{Name: "known values", In: `{"content":"a","priority":"medium","status":"in_progress"}`, Want: rulesPlanEntry("a", acpv1.PlanEntryPriorityMedium, acpv1.PlanEntryStatusInProgress), Valid: true},
		})
	})
	t.Run("PermissionOption", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.PermissionOption]{
			{Name: "unknown kind", In: `{"optionId":"o","name":"n","kind":"allow_sometimes"}`, Err: `unknown string "allow_sometimes"`, Field: "kind"},
			{Name: "known kind", In: `{"optionId":"o","name":"n","kind":"reject_always"}`, Want: acpv1.PermissionOption{OptionID: "o", Name: "n", Kind: acpv1.PermissionOptionKindRejectAlways}, Valid: true},
		})
	})
	t.Run("PromptResponse", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.PromptResponse]{
			{Name: "unknown stop reason", In: `{"stopReason":"paused"}`, Err: `unknown string "paused"`, Field: "stopReason"},
			{Name: "known stop reason", In: `{"stopReason":"end_turn"}`, Want: acpv1.PromptResponse{StopReason: acpv1.StopReasonEndTurn}, Valid: true},
		})
	})
	t.Run("ToolKind", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.ToolKind]{
			{Name: "unknown", In: `"teleport"`, Err: `unknown string "teleport"`},
			{Name: "known", In: `"switch_mode"`, Want: acpv1.ToolKindSwitchMode, Valid: true},
		})
	})
	t.Run("ToolCallStatus", func(t *testing.T) {
		jsontest.RunCases(t, []jsontest.Case[acpv1.ToolCallStatus]{
			{Name: "unknown", In: `"paused"`, Err: `unknown string "paused"`},
			{Name: "known", In: `"failed"`, Want: acpv1.ToolCallStatusFailed, Valid: true},
		})
	})
}
