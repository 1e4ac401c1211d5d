package ir_test

import (
	"os"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

func TestConstructors(t *testing.T) {
	data, err := os.ReadFile("testdata/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	p := parseBuild(t, "tiny.json", data)
	got := map[string]string{}
	p.Constructors = ir.Constructors(p)
	for _, c := range p.Constructors {
		var params []string
		for _, f := range c.Params {
			params = append(params, f.JSONName)
		}
		desc := "fields(" + strings.Join(params, ",") + ")"
		switch {
		case c.Null():
			desc = "null"
		case c.Value:
			desc = "value"
		case c.Whole:
			desc = "whole " + c.Source.Name
		}
		got[c.Union.Name+"/"+c.Variant.Name] = desc
	}
	want := map[string]string{
		"Update/user_chunk":  "fields(text)", // one payload: its required fields
		"Update/agent_chunk": "fields(text)",
		"Update/flag":        "fields(on)", // the variant's own fields
		"Plan/items":         "fields(text)",
		"Server/http":        "fields(text)",
		"Server/stdio":       "whole Thing", // more than three optional members
		"Id/Null":            "null",        // untagged alternatives that are not objects
		"Id/Str":             "value",
		"Id/Number":          "value",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s, want %s", k, got[k], w)
		}
	}
	if missing := ir.MissingConstructors(p); len(missing) != 0 {
		t.Errorf("variants without a constructor: %v", missing)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected constructor for %s: %s", k, got[k])
		}
	}
}
