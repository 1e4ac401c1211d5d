package pipeline

import (
	"path"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/templates"
)

// TestDeepSchemasBuild generates from schemas nested deeper than the loader
// hoists (inline objects, lists of lists, maps of lists) and type-checks
// the output.
func TestDeepSchemasBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks generated packages")
	}
	maps := `{"$defs":{"Root":{"type":"object","properties":{"m":` +
		strings.Repeat(`{"type":"object","additionalProperties":{"type":"array","items":`, 20) +
		`{"type":"integer","format":"int32"}` + strings.Repeat(`}}`, 20) + `}}}}`
	dir := t.TempDir()
	gomod, gosum := templates.Module("example.com/deep", "1.22")
	files := map[string][]byte{"go.mod": gomod, "go.sum": gosum}
	for name, doc := range map[string]string{
		"objects": nestedObjects(40),
		// Past 64 characters of schema name, inline types get short names,
		// and a definition keeps the name it has.
		"long":  strings.Replace(nestedObjects(90), `{"$defs":{`, `{"$defs":{"RootAAA1":{"type":"object","properties":{"x":{"type":"string"}}},`, 1),
		"items": nestedItems(40),
		// A tree whose nodes hold their children: the levels repeat the
		// steps before them and keep names of their own.
		"tree": `{"$defs":{"Root":` + strings.Repeat(`{"type":"object","properties":{"children":{"type":"array","items":`, 12) +
			`{"type":"string"}` + strings.Repeat(`}}}`, 12) + `}}`,
		"maps": maps,
	} {
		out, err := Generate(schemaFS(doc))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for file, data := range out.Files {
			files[path.Join(name, file)] = data
		}
	}
	long := string(files["long/acpv1/types.go"])
	for _, want := range []string{"type RootAAA1 struct", "type RootAAA2 struct", "type RootAAA30 struct"} {
		if !strings.Contains(long, want) {
			t.Errorf("long/acpv1/types.go has no %q", want)
		}
	}
	writeFiles(t, dir, files)
	checkPackages(t, dir, []string{""})
}
