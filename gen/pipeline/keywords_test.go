package pipeline

import (
	"os/exec"
	"testing"
)

// TestKeywordsEnforced generates the schema of the hostile case
// keywords-enforced, which has each validation keyword the decoders check
// on each kind of value, and runs decoding cases in the generated package:
// every keyword lets through what the schema allows and no more, with the
// member's path in the error, and x-deserialize-* rules apply to a value
// that fails a keyword as to one of the wrong type.
func TestKeywordsEnforced(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a module with the go command")
	}
	var c *hostileCase
	for _, hc := range hostileCases(t) {
		if hc.name == "keywords-enforced" {
			c = &hc
		}
	}
	if c == nil {
		t.Fatal("no hostile case keywords-enforced")
	}
	out, err := Generate(c.fsys)
	if err != nil {
		t.Fatal(err)
	}
	files := copyFiles(out.Files)
	files["acpv1/keywords_test.go"] = []byte(keywordsCases)
	dir := writeModule(t, files)
	cmd := exec.Command("go", "test", "-count=1", "./acpv1")
	cmd.Dir = dir
	cmd.Env = moduleEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test in the generated package: %v\n%s", err, out)
	}
}

// keywordsCases is the test file run in the package generated from
// keywords-enforced: each input decodes into A, or fails with an error that
// contains the path of the member.
const keywordsCases = `package acpv1

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestKeywords(t *testing.T) {
	for _, c := range []struct {
		in, err, out string
	}{
		{in: ` + "`" + `{"name":""}` + "`" + `, err: ".name"},
		{in: ` + "`" + `{"name":"123456789"}` + "`" + `, err: ".name"},
		{in: ` + "`" + `{"name":"ééééééé€"}` + "`" + `, out: ` + "`" + `{"name":"ééééééé€"}` + "`" + `},
		{in: ` + "`" + `{"name":"a","names":[]}` + "`" + `, err: ".names"},
		{in: ` + "`" + `{"name":"a","names":["a","b","c","d"]}` + "`" + `, err: ".names"},
		{in: ` + "`" + `{"name":"a","names":["a",""]}` + "`" + `, err: ".names"},
		{in: ` + "`" + `{"name":"a","small":-6}` + "`" + `, err: ".small"},
		{in: ` + "`" + `{"name":"a","small":10}` + "`" + `, err: ".small"},
		{in: ` + "`" + `{"name":"a","small":-5}` + "`" + `, out: ` + "`" + `{"name":"a","small":-5}` + "`" + `},
		{in: ` + "`" + `{"name":"a","small":9}` + "`" + `, out: ` + "`" + `{"name":"a","small":9}` + "`" + `},
		{in: ` + "`" + `{"name":"a","ratio":0}` + "`" + `, err: ".ratio"},
		{in: ` + "`" + `{"name":"a","ratio":1.0000001}` + "`" + `, err: ".ratio"},
		{in: ` + "`" + `{"name":"a","ratio":1e0}` + "`" + `, out: ` + "`" + `{"name":"a","ratio":1}` + "`" + `},
		{in: ` + "`" + `{"name":"a","ratio":0.30000000000000001}` + "`" + `, err: ".ratio"},
		{in: ` + "`" + `{"name":"a","fixed":{"a":[1.0,25e-1,"x"]}}` + "`" + `, out: ` + "`" + `{"name":"a","fixed":{"a":[1.0,25e-1,"x"]}}` + "`" + `},
		{in: ` + "`" + `{"name":"a","fixed":{"a":[1,2.5,"y"]}}` + "`" + `, err: ".fixed"},
		{in: ` + "`" + `{"name":"a","fixed":{"a":[1,2.5,"x"],"b":1}}` + "`" + `, err: ".fixed"},
		{in: ` + "`" + `{"name":"a","version":1.0}` + "`" + `, out: ` + "`" + `{"name":"a","version":1.0}` + "`" + `},
		{in: ` + "`" + `{"name":"a","version":2}` + "`" + `, err: ".version"},
		{in: ` + "`" + `{"name":"a","version":null}` + "`" + `, err: ".version"},
		{in: ` + "`" + `{"name":"a","level":0}` + "`" + `, out: ` + "`" + `{"name":"a"}` + "`" + `},
		{in: ` + "`" + `{"name":"a","level":9}` + "`" + `, out: ` + "`" + `{"name":"a","level":9}` + "`" + `},
		{in: ` + "`" + `{"name":"a","tags":["a","abcd"]}` + "`" + `, out: ` + "`" + `{"name":"a","tags":["a"]}` + "`" + `},
		{in: ` + "`" + `{"name":"a","tags":["abcd"]}` + "`" + `, err: ".tags"},
		{in: ` + "`" + `{"name":"a","kind":"c"}` + "`" + `, err: ".kind"},
		{in: ` + "`" + `{"name":"a","kind":"b"}` + "`" + `, out: ` + "`" + `{"name":"a","kind":"b"}` + "`" + `},
		{in: ` + "`" + `{"name":"a","currency":"EUR"}` + "`" + `, out: ` + "`" + `{"name":"a","currency":"EUR"}` + "`" + `},
		{in: ` + "`" + `{"name":"a","currency":"EURO"}` + "`" + `, err: ".currency"},
		{in: ` + "`" + `{"name":"a","currency":"eur"}` + "`" + `, err: ".currency"},
		{in: ` + "`" + `{"name":"a","gone":1}` + "`" + `, err: ".gone"},
		{in: ` + "`" + `{"name":"a","gone":null}` + "`" + `, err: ".gone"},
		{in: ` + "`" + `{"name":"a","byKey":{"x":10}}` + "`" + `, err: ".byKey"},
		{in: ` + "`" + `{"name":"a","byKey":{"x":9}}` + "`" + `, out: ` + "`" + `{"name":"a","byKey":{"x":9}}` + "`" + `},
	} {
		var a A
		err := json.Unmarshal([]byte(c.in), &a)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: got error %v, want one at %s", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if b, err := json.Marshal(a); err != nil || string(b) != c.out {
			t.Errorf("%s: written back as %s (%v), want %s", c.in, b, err, c.out)
		}
	}
}
`
