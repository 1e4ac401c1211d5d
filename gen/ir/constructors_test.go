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
	for _, c := range ir.Constructors(p) {
		var params []string
		for _, f := range c.Params {
			params = append(params, f.JSONName)
		}
		desc := "fields(" + strings.Join(params, ",") + ")"
		if c.Whole {
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
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s, want %s", k, got[k], w)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected constructor for %s: %s", k, got[k])
		}
	}
}
