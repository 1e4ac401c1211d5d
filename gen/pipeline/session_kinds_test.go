package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/acpgen/acpgen/schema"
)

// withDefinitions returns the pinned schema directory with definitions
// replaced, in every schema file that has them: file prefix ("v1/") →
// definition → a function of its schema that returns the new one, written
// with its keys sorted. The rest of each file stays as it is, in its order.
func withDefinitions(t *testing.T, edits map[string]map[string]func(any) any) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	err := fs.WalkDir(schema.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "provenance.json" {
			return err // the edited files are not the published ones
		}
		data, err := fs.ReadFile(schema.FS, p)
		if err != nil {
			return err
		}
		for prefix, defs := range edits {
			if !strings.HasPrefix(p, prefix) || !strings.HasSuffix(p, ".json") {
				continue
			}
			for name, edit := range defs {
				if data, err = replaceDefinition(data, name, edit); err != nil {
					return fmt.Errorf("%s: %v", p, err)
				}
			}
		}
		fsys[p] = &fstest.MapFile{Data: data}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

// replaceDefinition replaces the value of the $defs entry name in the
// schema file data by edit of it; a file without one stays as it is.
func replaceDefinition(data []byte, name string, edit func(any) any) ([]byte, error) {
	key := []byte("\n    " + strconv.Quote(name) + ": ")
	i := bytes.Index(data, key)
	if i < 0 {
		return data, nil
	}
	start := i + len(key)
	dec := json.NewDecoder(bytes.NewReader(data[start:]))
	var old any
	if err := dec.Decode(&old); err != nil {
		return nil, err
	}
	repl, err := json.Marshal(edit(old))
	if err != nil {
		return nil, err
	}
	end := start + int(dec.InputOffset())
	return append(append(append([]byte(nil), data[:start]...), repl...), data[end:]...), nil
}

// TestSessionDefinitionKinds: the session runtime keys maps with session
// ids and compares them, and calls constructors: a schema whose v1
// SessionId is not a string ("true": any JSON value) generates packages
// without the session files, which compile, instead of session files that
// do not (invalid map key type SessionID). A v2 PromptRequest that lists
// prompt before sessionId changes nothing: constructors take the session
// id first whatever the schema's order (ir.ArgumentLead), so the v2 session
// files are generated and compile. One schema holds both cases, one per
// version, so that the packages are type-checked once.
func TestSessionDefinitionKinds(t *testing.T) {
	fsys := withDefinitions(t, map[string]map[string]func(any) any{
		"v1/": {"SessionId": func(any) any { return true }},
		// Written again with its keys sorted: prompt before sessionId.
		"v2/": {"PromptRequest": func(v any) any { return v }},
	})
	out, err := Generate(fsys)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for name, data := range out.Files {
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			files[name] = data
		}
	}
	for _, name := range []string{"acpv1/session.go", "acpv1/session_conn.go", "acpv1/session_router.go"} {
		if files[name] != nil {
			t.Errorf("%s generated for a schema whose definitions the session runtime cannot use", name)
		}
	}
	for _, name := range []string{"acpv2/session.go", "acpv2/session_conn.go", "acpv2/session_router.go"} {
		if files[name] == nil {
			t.Errorf("%s not generated: the order of PromptRequest's properties decided it", name)
		}
	}
	if files["acpv1/conn.go"] == nil || files["acpv2/conn.go"] == nil {
		t.Fatal("the connections were not generated")
	}
	if testing.Short() {
		t.Skip("type-checks the packages")
	}
	checkPackages(t, writeModule(t, files), []string{"", "unstable"})
}
