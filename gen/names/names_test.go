package names

import (
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

func TestExported(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SessionId", "SessionID"},
		{"Uri", "URI"},
		{"uri", "URI"},
		{"toolCallId", "ToolCallID"},
		{"McpServerHttp", "MCPServerHTTP"},
		{"McpServerAcpId", "MCPServerACPID"},
		{"NesSuggestion", "NESSuggestion"},
		{"_meta", "Meta"},
		{"in_progress", "InProgress"},
		{"date-time", "DateTime"},
		{"session/update", "SessionUpdate"},
		{"$/cancel_request", "CancelRequest"},
		{"fs/read_text_file", "FsReadTextFile"},
		{"Parse error", "ParseError"},
		{"HTTPServer", "HTTPServer"},
		{"jsonRpcMessage", "JSONRPCMessage"},
		{"mimeType", "MimeType"},
		{"url", "URL"},
		{"Id", "ID"},
		{"Ids", "Ids"},
		{"v2", "V2"},
		{"32000", "N32000"},
		{"", ""},
		{"--", ""},
	} {
		if got := exported(tc.in); got != tc.want {
			t.Errorf("exported(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestUnexported(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SessionId", "sessionID"},
		{"IdFoo", "idFoo"},
		{"URIValue", "uriValue"},
		{"type", "type_"},
		{"func", "func_"},
		{"range", "range_"},
		{"value", "value"},
	} {
		if got := unexported(tc.in); got != tc.want {
			t.Errorf("unexported(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestWords(t *testing.T) {
	got := strings.Join(words("McpServerHTTPConfig2x_fooBar"), " ")
	if want := "Mcp Server HTTP Config2x foo Bar"; got != want {
		t.Errorf("words = %q, want %q", got, want)
	}
}

func TestAssignCollisions(t *testing.T) {
	payload := &ir.Type{Name: "AuthMethodAgent", Kind: ir.Struct}
	union := &ir.Type{Name: "AuthMethod", Kind: ir.Union, Union: &ir.UnionInfo{
		Tag:      "type",
		Variants: []*ir.Variant{{Name: "terminal", Tag: "terminal"}},
		Default:  &ir.Variant{Name: "agent", Embeds: []*ir.Type{payload}},
		Fallback: &ir.Variant{Name: "other"},
	}}
	p := &ir.Package{Types: []*ir.Type{payload, union}}
	if err := Assign(p); err != nil {
		t.Fatal(err)
	}
	if got := union.Union.Default.GoName; got != "AuthMethodAgentVariant" {
		t.Errorf("variant whose name a type has = %s, want AuthMethodAgentVariant", got)
	}
	if got := union.Union.Variants[0].GoName; got != "AuthMethodTerminal" {
		t.Errorf("variant = %s, want AuthMethodTerminal", got)
	}

	clash := &ir.Package{Types: []*ir.Type{{Name: "SessionId"}, {Name: "SessionID"}}}
	if err := Assign(clash); err == nil || !strings.Contains(err.Error(), "SessionID") {
		t.Errorf("two types with one Go name: err = %v", err)
	}

	fields := &ir.Package{Types: []*ir.Type{{Name: "A", Pointer: "/$defs/A", Kind: ir.Struct, Fields: []*ir.Field{
		{JSONName: "_meta", Pointer: "/$defs/A/properties/_meta"}, {JSONName: "meta", Pointer: "/$defs/A/properties/meta"},
	}}}}
	if err := Assign(fields); err == nil || err.Error() != `/$defs/A/properties/meta: the Go name Meta of property "meta" of A is already taken by property "_meta" of A (#/$defs/A/properties/_meta)` {
		t.Errorf("two properties with one Go name: err = %v", err)
	}

	tagField := &ir.Package{Types: []*ir.Type{{Name: "U", Kind: ir.Union, Fields: []*ir.Field{{JSONName: "tag", Pointer: "/$defs/U/properties/tag"}},
		Union: &ir.UnionInfo{Tag: "kind", Fallback: &ir.Variant{Name: "other"}}}}}
	if err := Assign(tagField); err == nil || !strings.Contains(err.Error(), "/$defs/U/properties/tag") {
		t.Errorf("a shared property named like the union's Tag method: err = %v", err)
	}

	extra := &ir.Package{Types: []*ir.Type{{Name: "E", Kind: ir.Struct, Extra: true, Fields: []*ir.Field{{JSONName: "extra", Pointer: "/$defs/E/properties/extra"}}}}}
	if err := Assign(extra); err == nil || !strings.Contains(err.Error(), "/$defs/E/properties/extra") {
		t.Errorf("a property named like the Extra field: err = %v", err)
	}
}

// TestRuntime: the runtime templates' names are found by parsing them.
func TestRuntime(t *testing.T) {
	want := map[string]string{
		"Message": "rpc.go", "DecodeMessage": "rpc.go", "Nullable": "json.go", "Some": "json.go", "Null": "json.go",
		"decoder": "decode.go", "encodeBuffer": "encode.go", "Error.Error": "rpc.go",
	}
	got := map[string]string{}
	for _, n := range runtimeDecls() {
		key := n.Name
		if n.Receiver != "" {
			key = n.Receiver + "." + n.Name
		}
		got[key] = n.File
	}
	for name, file := range want {
		if got[name] != file {
			t.Errorf("%s: file %q, want %q", name, got[name], file)
		}
	}
}

// TestConvertRuntime: the convert templates' names are found by parsing
// them; a name is declared by one file, or by both files of a pair that
// build constraints keep apart (plan_ops.go and plan_ops_off.go); the
// emitter's helpers and conversions take none of them.
func TestConvertRuntime(t *testing.T) {
	files := map[string][]string{}
	for _, n := range ConvertRuntime() {
		if n.Receiver == "" {
			files[n.Name] = append(files[n.Name], n.File)
		}
	}
	for name, file := range map[string]string{"NewBridge": "bridge.go", "Negotiate": "negotiate.go",
		"InitializeForV1": "initialize.go", "PlanToV1": "plan.go", "planOpsSessionUpdateToV2": "plan_ops.go"} {
		if len(files[name]) == 0 || files[name][0] != file {
			t.Errorf("%s: files %v, want %s", name, files[name], file)
		}
	}
	for name, in := range files {
		switch {
		case len(in) == 1:
		case len(in) == 2 && in[0] == strings.TrimSuffix(in[1], "_off.go")+".go":
		default:
			t.Errorf("%s is declared in %v", name, in)
		}
	}
	for _, h := range ConvertHelpers {
		if ConvertClaimed(h) {
			t.Errorf("the emitter's helper %s is a template's name", h)
		}
	}
	if !ConvertClaimed("PlanToV1") || ConvertClaimed("ImplementationToV1") || ConvertFunc("Plan", false) != "PlanToV1" {
		t.Error("PlanToV1 is the template's; ImplementationToV1 the emitter's")
	}
}

func TestDerivedNames(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{lowerFirst("MCPServer"), "mcpServer"},
		{lowerFirst("SessionUpdate"), "sessionUpdate"},
		{lowerFirst("ID"), "id"},
		{registry("SessionUpdate"), "sessionUpdateUnstable"},
		{extension("ClientCapabilities", "unstable_plan_operations"), "clientCapabilitiesPlanOperations"},
		{extension("A", "unstable_a+unstable_b"), "aAB"},
		{extension("U", "unstable"), "uUnstable"},
		{marker("ContentBlock", true), "contentBlockTag"},
		{marker("RequestID", false), "isRequestID"},
		{sharedFields("SessionConfigOption"), "sessionConfigOptionFields"},
		{methodTable("NewResult"), "newResultUnstable"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
}

// TestAssignReportsAll: every clash is reported, each with both claimants.
func TestAssignReportsAll(t *testing.T) {
	p := &ir.Package{StableFile: "v1/schema.json", Types: []*ir.Type{
		{Name: "Message", Pointer: "/$defs/Message", Kind: ir.Struct},
		{Name: "A", Pointer: "/$defs/A", Kind: ir.Struct, Fields: []*ir.Field{
			{JSONName: "marshalJSON", Pointer: "/$defs/A/properties/marshalJSON"},
		}},
	}}
	err := Assign(p)
	want := `v1/schema.json: /$defs/A/properties/marshalJSON: the Go name MarshalJSON of property "marshalJSON" of A is already taken by the method A.MarshalJSON that acpgen generates
v1/schema.json: /$defs/Message: the Go name Message of definition "Message" is already taken by Message, declared by the runtime file rpc.go`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

func TestAssignReservesRuntimeNames(t *testing.T) {
	p := &ir.Package{Types: []*ir.Type{{Name: "RequestTracker", Kind: ir.Struct, Pointer: "#/$defs/RequestTracker"}}}
	if err := Assign(p); err == nil || !strings.Contains(err.Error(), "the runtime") {
		t.Errorf("a definition named like the runtime's RequestTracker: error %v", err)
	}
}
