package ir_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

// TestMethodConstructors checks which params and result types get a
// constructor, with which parameters and behind which tags.
func TestMethodConstructors(t *testing.T) {
	const dir = "testdata/constructors/"
	p, err := ir.Merge(buildFile(t, dir+"schema.json"), buildFile(t, dir+"schema.unstable.json"), "schema.json", "schema.unstable.json")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var order []string
	for _, c := range ir.MethodConstructors(p) {
		var params []string
		for _, f := range c.Params {
			params = append(params, f.JSONName)
		}
		if c.Variant {
			params = append(params, "<variant>")
		}
		var uses []string
		for _, u := range c.Uses {
			what := "params"
			if u.Result {
				what = "result"
			}
			uses = append(uses, what+" of "+u.Method.Name)
		}
		desc := fmt.Sprintf("(%s) %s [%s]", strings.Join(params, ","), strings.Join(uses, "; "), c.Gate().Key())
		if c.Source != c.Type {
			desc += " from " + c.Source.Name
		}
		got[c.Type.Name] = desc
		order = append(order, c.Type.Name)
	}
	want := map[string]string{
		// Required fields in schema order (not the order of "required"),
		// optional ones and _meta left to the caller.
		"WriteRequest": "(sessionId,path,content) params of fs/write []",
		// A union: its shared required fields, then the variant.
		"ConfigRequest":      "(sessionId,<variant>) params of config []",
		"ConfigResponse":     "(<variant>) result of config []",
		"UpdateNotification": "(sessionId) params of update []",
		"RelayRequest":       "(method) params of relay []",
		"ForkRequest":        "(sessionId) params of session/fork [unstable]",
		"ForkResponse":       "() result of session/fork [unstable]",
		// Another name for a type: its fields, behind its own tags, where
		// the unstable required field etag is declared too.
		"ProxyWriteRequest":  "(sessionId,path,content) params of proxy/write [unstable] from WriteRequest",
		"ProxyWriteResponse": "(etag) result of proxy/write [unstable] from WriteResponse",
		// WriteResponse: a stable type whose required etag only the
		// unstable schema has gets none. RelayResponse: free-form JSON.
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %q, want %q", k, got[k], w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected constructor for %s: %s", k, g)
		}
	}
	// In the order of the methods (by name), params before result.
	if w := "ConfigRequest ConfigResponse WriteRequest ProxyWriteRequest ProxyWriteResponse RelayRequest ForkRequest ForkResponse UpdateNotification"; strings.Join(order, " ") != w {
		t.Errorf("order %v, want %s", order, w)
	}
}
