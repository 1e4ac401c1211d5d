package ir_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/load"
)

func build(t *testing.T, path string) map[string]*ir.Type {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return buildDoc(t, data)
}

// buildDoc builds the IR of a schema document and returns its types by
// name, with the methods written out under "@methods".
func buildDoc(t *testing.T, data []byte) map[string]*ir.Type {
	t.Helper()
	p := parseBuild(t, "tiny.json", data)
	types := typesByName(p)
	types["@methods"] = &ir.Type{Name: methodsString(p.Methods)}
	return types
}

// parseBuild parses data as the schema file named file and builds its IR.
func parseBuild(t *testing.T, file string, data []byte) *ir.Package {
	t.Helper()
	f, err := load.Parse(file, data)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ir.Build(f, ir.Options{Name: "tiny"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// typesByName returns the types of p by name.
func typesByName(p *ir.Package) map[string]*ir.Type {
	types := map[string]*ir.Type{}
	for _, ty := range p.Types {
		types[ty.Name] = ty
	}
	return types
}

func methodsString(ms []*ir.Method) string {
	var parts []string
	for _, m := range ms {
		s := m.Name + " " + m.Params.Name
		if m.Result != nil {
			s += " → " + m.Result.Name
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func TestKinds(t *testing.T) {
	types := build(t, "testdata/tiny.json")
	for name, want := range map[string]ir.Kind{
		"SessionId": ir.Named, "Port": ir.Named, "Free": ir.Raw, "Color": ir.Enum, "Mood": ir.Enum,
		"Code": ir.Enum, "Thing": ir.Struct, "Update": ir.Union, "Plan": ir.Union, "Server": ir.Union,
		"Id": ir.Union, "ThingInline": ir.Struct, "Envelope": ir.Struct,
	} {
		if got := types[name]; got == nil || got.Kind != want {
			t.Errorf("%s: kind %v, want %v", name, got, want)
		}
	}
	if got := *types["Port"].Underlying; got.Kind != ir.RefInt || got.Bits != 16 || !got.Unsigned {
		t.Errorf("Port: %+v, want uint16", got)
	}
}

func TestStructFields(t *testing.T) {
	thing := build(t, "testdata/tiny.json")["Thing"]
	var got []string
	for _, f := range thing.Fields {
		s := f.JSONName
		if f.Required {
			s += " required"
		}
		if f.Nullable {
			s += " nullable"
		}
		if f.DefaultOnError {
			s += " default-on-error"
		}
		if f.SkipInvalidItems {
			s += " skip-invalid"
		}
		got = append(got, s)
	}
	want := []string{"zeta required", "alpha nullable default-on-error", "sessionId required", "color nullable",
		"tags skip-invalid", "env", "_meta nullable", "inline"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fields in file order:\n got %q\nwant %q", got, want)
	}
	kinds := map[string]ir.RefKind{"zeta": ir.RefString, "alpha": ir.RefInt, "sessionId": ir.RefNamed, "color": ir.RefNamed,
		"tags": ir.RefArray, "env": ir.RefMap, "_meta": ir.RefRaw, "inline": ir.RefNamed}
	for _, f := range thing.Fields {
		if f.Type.Kind != kinds[f.JSONName] {
			t.Errorf("%s: ref kind %v, want %v", f.JSONName, f.Type.Kind, kinds[f.JSONName])
		}
	}
}

func TestExtraMembers(t *testing.T) {
	types := build(t, "testdata/tiny.json")
	for name, want := range map[string]bool{"EchoResponse": true, "EchoRequest": false, "Thing": false} {
		if got := types[name].Extra; got != want {
			t.Errorf("%s: Extra = %v, want %v (additionalProperties)", name, got, want)
		}
	}
}

func TestEnums(t *testing.T) {
	types := build(t, "testdata/tiny.json")
	if e := types["Color"].Enum; e.Open || len(e.Values) != 2 || e.Values[1].String != "dark-blue" || e.Values[0].Doc != "Red." {
		t.Errorf("Color: %+v", e)
	}
	if e := types["Mood"].Enum; !e.Open || len(e.Values) != 1 {
		t.Errorf("Mood should be open with one value: %+v", e)
	}
	if e := types["Code"].Enum; !e.Integer || e.Bits != 32 || e.Values[0].Int != -32700 || e.Values[0].Name != "Parse error" {
		t.Errorf("Code: %+v", e)
	}
}

func TestTaggedUnions(t *testing.T) {
	types := build(t, "testdata/tiny.json")
	u := types["Update"].Union
	if u.Tag != "kind" || len(u.Variants) != 3 || u.Default != nil || u.Fallback == nil {
		t.Fatalf("Update: %+v", u)
	}
	if u.Variants[0].Embeds[0] != u.Variants[1].Embeds[0] {
		t.Error("user_chunk and agent_chunk should share the Chunk payload")
	}
	if f := u.Variants[2].Fields; len(f) != 1 || f[0].JSONName != "on" || !f[0].Required {
		t.Errorf("flag's own fields: %+v", f)
	}
	plan := types["Plan"].Union
	if plan.Tag != "type" || plan.Fallback == nil || len(plan.Fallback.Fields) != 1 || plan.Fallback.Fields[0].JSONName != "planId" || !plan.Fallback.Fields[0].Required {
		t.Errorf("Plan fallback should require planId: %+v", plan.Fallback)
	}
	srv := types["Server"].Union
	if srv.Default == nil || srv.Default.Name != "stdio" || srv.Default.Embeds[0].Name != "Thing" {
		t.Errorf("Server should decode stdio without a tag: %+v", srv.Default)
	}
}

func TestUntaggedUnion(t *testing.T) {
	u := build(t, "testdata/tiny.json")["Id"].Union
	var got []string
	for _, v := range u.Variants {
		got = append(got, v.Name+":"+string(v.JSON))
	}
	if want := []string{"Null:null", "Number:integer", "Str:string"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Id alternatives %q, want %q", got, want)
	}
}

func TestMethods(t *testing.T) {
	types := build(t, "testdata/tiny.json")
	if got, want := types["@methods"].Name, "echo EchoRequest → EchoResponse; ping PingRequest → PingResponse; ping PingNotification"; got != want {
		t.Errorf("methods %q, want %q", got, want)
	}
	params := types["Envelope"].Fields[1]
	if params.Type.Kind != ir.RefRaw || !params.Nullable {
		t.Errorf("params chosen by method should stay raw JSON: %+v", params)
	}
}

// TestUnnamedMembers: an object that declares additionalProperties keeps
// the members it does not name in Extra, one that forbids them is Closed,
// and one that says nothing is neither.
func TestUnnamedMembers(t *testing.T) {
	types := buildDoc(t, []byte(`{"$defs":{
		"Open":{"type":"object","properties":{"a":{"type":"string"}}},
		"Extra":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true},
		"Closed":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}}`))
	for name, want := range map[string][2]bool{"Open": {false, false}, "Extra": {true, false}, "Closed": {false, true}} {
		if got := [2]bool{types[name].Extra, types[name].Closed}; got != want {
			t.Errorf("%s: Extra, Closed = %v, want %v", name, got, want)
		}
	}
}
