package pipeline

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/templates"
)

// unknownSchema has an object that allows members it does not name without
// saying so, one that declares additionalProperties, one that forbids
// them, and a tagged union whose variant is the first.
const unknownSchema = `{"$defs":{
	"Open":{"type":"object","required":["a"],"properties":{"a":{"type":"string"},"b":{"type":"integer"}}},
	"Extra":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true},
	"Closed":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false},
	"U":{"oneOf":[{"allOf":[{"$ref":"#/$defs/Open"}],"properties":{"t":{"const":"open","type":"string"}},"required":["t"]}],"discriminator":{"propertyName":"t"}}}}`

// unknownTest runs in the package generated from unknownSchema.
const unknownTest = `package acpv1

import (
	"encoding/json"
	"testing"
)

func TestUnknownMembers(t *testing.T) {
	for _, c := range []struct {
		v       interface{ json.Marshaler }
		in, out string
	}{
		{new(Open), ` + "`" + `{"z":[1.50, 2],"a":"x","y":{}}` + "`" + `, ` + "`" + `{"a":"x","z":[1.50,2],"y":{}}` + "`" + `},
		{new(Open), ` + "`" + `{"a":"x"}` + "`" + `, ` + "`" + `{"a":"x"}` + "`" + `},
		{new(Extra), ` + "`" + `{"z":1,"a":"x"}` + "`" + `, ` + "`" + `{"a":"x","z":1}` + "`" + `},
		{new(U), ` + "`" + `{"z":true,"t":"open","a":"x"}` + "`" + `, ` + "`" + `{"t":"open","a":"x","z":true}` + "`" + `},
		{new(U), ` + "`" + `{"t":"open","a":"x","z":true}` + "`" + `, ` + "`" + `{"t":"open","a":"x","z":true}` + "`" + `},
	} {
		if err := json.Unmarshal([]byte(c.in), c.v); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		out, err := c.v.MarshalJSON()
		if err != nil || string(out) != c.out {
			t.Errorf("%s: %s, %v, want %s", c.in, out, err, c.out)
		}
	}
	if a, b := (Open{A: "x"}), (Open{A: "x"}); a != b {
		t.Error("Open is not comparable as before")
	}
	var closed Closed
	if err := json.Unmarshal([]byte(` + "`" + `{"a":"x","z":1}` + "`" + `), &closed); err == nil {
		t.Error("Closed accepts a member its schema forbids")
	}
	if err := json.Unmarshal([]byte(` + "`" + `{"a":"x"}` + "`" + `), &closed); err != nil {
		t.Error(err)
	}
}
`

// TestUnknownMembersRun generates unknownSchema and runs unknownTest in a
// go 1.22 module: members the schema allows without naming them come back
// after the named ones, byte for byte, in a struct and in a union's
// variant (wherever its tag is), and a forbidden one is an error.
func TestUnknownMembersRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with the go command")
	}
	out, err := Generate(schemaFS(unknownSchema))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string][]byte{"acpv1/unknown_test.go": []byte(unknownTest)}
	for name, data := range out.Files {
		files[name] = data
	}
	files["go.mod"], files["go.sum"] = templates.Module("example.com/unknown", "1.22")
	writeFiles(t, dir, files)
	cmd := exec.Command("go", "test", "-v", "-run", "TestUnknownMembers", "./acpv1")
	cmd.Dir = filepath.Clean(dir)
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY=off")
	got, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(got), "--- PASS: TestUnknownMembers") {
		t.Fatalf("go test: %v\n%s", err, got)
	}
}
