package names

import (
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

func TestMethodConstructorNames(t *testing.T) {
	req := &ir.Type{Name: "SetRequest", Pointer: "/$defs/SetRequest", Kind: ir.Union, Fields: []*ir.Field{
		{JSONName: "sessionId", Required: true}, {JSONName: "type", Required: true}, {JSONName: "note"},
	}, Union: &ir.UnionInfo{Tag: "kind", Fallback: &ir.Variant{Name: "other"}}}
	resp := &ir.Type{Name: "SetResponse", Pointer: "/$defs/SetResponse", Kind: ir.Struct}
	p := &ir.Package{
		Types:   []*ir.Type{req, resp},
		Methods: []*ir.Method{{Name: "set", Kind: ir.Request, Params: req, Result: resp}},
	}
	if err := Assign(p); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range p.MethodConstructors {
		got[c.GoName] = strings.Join(c.ParamNames, ",")
	}
	// A keyword gets "_"; a union's variant is the last parameter, "value".
	want := map[string]string{"NewSetRequest": "sessionID,type_,value", "NewSetResponse": ""}
	if len(got) != len(want) {
		t.Errorf("constructors %v, want %v", got, want)
	}
	for name, params := range want {
		if p, ok := got[name]; !ok || p != params {
			t.Errorf("%s: params %q (found %v), want %q", name, p, ok, params)
		}
	}
}

// TestMethodConstructorCollisions: a constructor's name that something else
// has is an error that names both. (A variant constructor cannot take it: a
// variant is never named like a type.)
func TestMethodConstructorCollisions(t *testing.T) {
	params := &ir.Type{Name: "PingRequest", Pointer: "/$defs/PingRequest", Kind: ir.Struct}
	result := &ir.Type{Name: "PingResponse", Pointer: "/$defs/PingResponse", Kind: ir.Struct, Gate: ir.Gate{Unstable: true}}
	typ := &ir.Type{Name: "NewPingResponse", Pointer: "/$defs/NewPingResponse", Kind: ir.Struct}
	union := &ir.Type{Name: "New", Pointer: "/$defs/New", Kind: ir.Union, Union: &ir.UnionInfo{
		Tag:      "kind",
		Variants: []*ir.Variant{{Name: "ping_request", Tag: "ping_request", Pointer: "/$defs/New/oneOf/0"}},
		Fallback: &ir.Variant{Name: "other"},
	}}
	p := &ir.Package{
		StableFile: "v1/schema.json", UnstableFile: "v1/schema.unstable.json",
		Types:   []*ir.Type{params, result, typ, union},
		Methods: []*ir.Method{{Name: "ping", Kind: ir.Request, Params: params, Result: result}},
	}
	err := Assign(p)
	want := `v1/schema.json: /$defs/PingRequest: the Go name NewPingRequest of the constructor of PingRequest, the params of the "ping" request is already taken by variant "ping_request" of New (v1/schema.json#/$defs/New/oneOf/0)
v1/schema.unstable.json: /$defs/PingResponse: the Go name NewPingResponse of the constructor of PingResponse, the result of the "ping" request is already taken by definition "NewPingResponse" (v1/schema.json#/$defs/NewPingResponse)`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}
