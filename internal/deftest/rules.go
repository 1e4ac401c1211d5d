package deftest

import (
	"testing"

	"github.com/acpgen/acpgen/internal/jsontest"
)

type fields = jsontest.Fields

// RuleCases are cases of one decoding rule on one definition.
type RuleCases struct {
	Rule  string
	Def   string
	Cases []jsontest.DefCase
}

// Rules are the cases of the decoding rules that the schema attaches to
// properties, and of those that hold without them, that every version
// shares; each package's rules tests hold those of its own version.
var Rules = []RuleCases{{
	Rule: "SkipInvalidItems",
	Def:  "ListSessionsResponse",
	Cases: []jsontest.DefCase{{
		Name: "bad items mixed with good ones",
		In:   `{"sessions":[{"sessionId":"s1","cwd":"/w"},{"cwd":"/w"},"s2",{"sessionId":"s3","cwd":"/w","title":5},{"sessionId":4,"cwd":"/w"}]}`,
		Want: fields{"Sessions": list{fields{"SessionID": "s1", "Cwd": "/w"}, fields{"SessionID": "s3", "Cwd": "/w"}}},
		Enc:  `{"sessions":[{"sessionId":"s1","cwd":"/w"},{"sessionId":"s3","cwd":"/w"}]}`,
	}},
}, {
	// A required list of a union: neither a value of the wrong type nor a
	// bad item is dropped.
	Rule: "DefaultOnNull",
	Def:  "NewSessionRequest",
	Cases: []jsontest.DefCase{
		{Name: "wrong type", In: `{"cwd":"/w","mcpServers":"none"}`, Err: "cannot unmarshal string", Field: "mcpServers"},
		{Name: "bad item is not dropped", In: `{"cwd":"/w","mcpServers":[5]}`, Err: "cannot unmarshal number", Field: "mcpServers"},
		{Name: "null item is not dropped", In: `{"cwd":"/w","mcpServers":[null]}`, Err: "null", Field: "mcpServers"},
		{Name: "missing required sibling", In: `{"mcpServers":null}`, Err: `object without "cwd"`, Field: "cwd"},
	},
}, {
	Rule: "DefaultOnNull",
	Def:  "McpServerStdio",
	Cases: []jsontest.DefCase{{
		Name:  "valid",
		In:    `{"name":"fs","command":"/bin/fs","args":["-v"],"env":[{"name":"K","value":"V"}]}`,
		Want:  fields{"Name": "fs", "Command": "/bin/fs", "Args": list{"-v"}, "Env": list{fields{"Name": "K", "Value": "V"}}},
		Valid: true,
	}, {
		Name: "null lists",
		In:   `{"name":"fs","command":"/bin/fs","args":null,"env":null}`,
		Want: some{"Name": "fs", "Command": "/bin/fs", "Args": jsontest.Empty{}, "Env": jsontest.Empty{}},
	}},
}, {
	// A missing key is an *json.UnmarshalTypeError whose Field is the JSON
	// path of the member.
	Rule: "Required",
	Def:  "PlanEntry",
	Cases: []jsontest.DefCase{
		{Name: "content", In: `{"priority":"high","status":"pending"}`, Err: `object without "content"`, Field: "content"},
		{Name: "priority", In: `{"content":"a","status":"pending"}`, Err: `object without "priority"`, Field: "priority"},
		{Name: "status", In: `{"content":"a","priority":"high"}`, Err: `object without "status"`, Field: "status"},
		{Name: "empty object", In: `{}`, Err: `object without "`},
		{Name: "null", In: `null`, Err: "cannot unmarshal null"},
		{Name: "not an object", In: `["a","high","pending"]`, Err: "cannot unmarshal array"},
		{Name: "all present", In: `{"content":"a","priority":"high","status":"pending"}`, Want: fields{"Content": "a", "Priority": "high", "Status": "pending"}, Valid: true},
	},
}, {
	// Optional members whose null clears a value decode to Nullable, which
	// keeps absent, null and a value apart.
	Rule: "Nullable",
	Def:  "SessionInfoUpdate",
	Cases: []jsontest.DefCase{{
		Name:  "absent",
		In:    `{}`,
		Want:  fields{},
		Valid: true,
	}, {
		Name:  "null clears",
		In:    `{"title":null}`,
		Want:  fields{"Title": fields{"Present": true, "Null": true}},
		Valid: true,
	}, {
		Name:  "value",
		In:    `{"title":"New title","updatedAt":null}`,
		Want:  fields{"Title": fields{"Present": true, "Value": "New title"}, "UpdatedAt": fields{"Present": true, "Null": true}},
		Valid: true,
	}, {
		Name:  "empty string is a value",
		In:    `{"title":""}`,
		Want:  fields{"Title": fields{"Present": true}},
		Valid: true,
	}, {
		Name: "wrong type defaults to absent",
		In:   `{"title":5,"updatedAt":"2025-01-01T00:00:00Z"}`,
		Want: fields{"UpdatedAt": fields{"Present": true, "Value": "2025-01-01T00:00:00Z"}},
		Enc:  `{"updatedAt":"2025-01-01T00:00:00Z"}`,
	}},
}}

// RunRules runs Rules on the Go types of defs, in subtests named by rule
// and definition.
func RunRules(t *testing.T, defs jsontest.Definitions) {
	for _, r := range Rules {
		t.Run(r.Rule+"/"+r.Def, func(t *testing.T) {
			jsontest.RunDefCases(t, defs, r.Def, r.Cases)
		})
	}
}
