package names

import (
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/schema"
)

var update = flag.Bool("update", false, "rewrite testdata/lead.golden")

// TestLeadSchemas lowers the first sentence of every description in the
// pinned schema files and checks that each becomes a Go doc sentence: it
// begins with the identifier, it is not "X means: …", and it ends with a
// full stop. The table of all of them is testdata/lead.golden (-update
// rewrites it), so a change of wording shows in review.
func TestLeadSchemas(t *testing.T) {
	docs := schemaDocs(t)
	var rows []string
	seen := map[string]bool{}
	for _, d := range docs {
		doc := GoDoc(d.text, func(string) (string, bool) { return "", false })
		in := firstSentence(doc)
		out := firstSentence(Lead(d.ident, doc))
		if problem := leadProblem(d.ident, out); problem != "" {
			t.Errorf("%s %q: %q: %s", d.ident, in, out, problem)
		}
		row := in + "\n\t" + out + "\n"
		if !seen[row] {
			seen[row] = true
			rows = append(rows, row)
		}
	}
	sort.Strings(rows)
	got := strings.Join(rows, "")
	golden := filepath.Join("testdata", "lead.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("first sentences differ from %s; run go test -run TestLeadSchemas -update and review the diff", golden)
	}
}

// leadProblem says what keeps s from being a Go doc sentence about ident,
// or returns "".
func leadProblem(ident, s string) string {
	rest, ok := strings.CutPrefix(s, ident+" ")
	switch {
	case !ok:
		return "does not begin with the identifier"
	case strings.HasPrefix(rest, "means:"):
		return `reads "X means: …"`
	case !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, ".)"):
		return "does not end with a full stop"
	case rest == "" || !isLowerWord(rest):
		return "the identifier is not followed by a verb in lower case"
	}
	return ""
}

func isLowerWord(s string) bool {
	return s[0] >= 'a' && s[0] <= 'z'
}

// sentenceEnd is the end of a first sentence: a full stop before a space and
// a capital letter, or the end of the paragraph.
var sentenceEnd = regexp.MustCompile(`[.!?]\s+[A-Z\[\"]`)

// firstSentence is the first sentence of the first paragraph of doc, on one line.
func firstSentence(doc string) string {
	para, _, _ := strings.Cut(doc, "\n\n")
	para = strings.Join(strings.Fields(para), " ")
	if loc := sentenceEnd.FindStringIndex(para); loc != nil {
		return para[:loc[0]+1]
	}
	return para
}

type schemaDoc struct{ ident, text string }

// schemaDocs returns every description in the four pinned schema files with
// the identifier its definition, property or variant is named after.
func schemaDocs(t *testing.T) []schemaDoc {
	t.Helper()
	var out []schemaDoc
	for _, file := range []string{"v1/schema.json", "v1/schema.unstable.json", "v2/schema.json", "v2/schema.unstable.json"} {
		data, err := fs.ReadFile(schema.FS, file)
		if err != nil {
			t.Fatal(err)
		}
		var root any
		if err := json.Unmarshal(data, &root); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		out = walkDocs(root, "Schema", out)
	}
	return out
}

func walkDocs(v any, ident string, out []schemaDoc) []schemaDoc {
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			out = walkDocs(e, ident, out)
		}
	case map[string]any:
		if name := variantName(v); name != "" {
			ident = name
		}
		if d, ok := v["description"].(string); ok && strings.TrimSpace(d) != "" {
			out = append(out, schemaDoc{ident, d})
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch k {
			case "$defs", "definitions", "properties":
				m, _ := v[k].(map[string]any)
				names := make([]string, 0, len(m))
				for n := range m {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					out = walkDocs(m[n], Exported(n), out)
				}
			case "description":
			default:
				out = walkDocs(v[k], ident, out)
			}
		}
	}
	return out
}

// variantName names a schema that is one alternative of a union: by its
// title, its constant or the constant of its tag property.
func variantName(v map[string]any) string {
	if s, ok := v["title"].(string); ok {
		return Exported(s)
	}
	if s, ok := v["const"].(string); ok {
		return Exported(s)
	}
	props, _ := v["properties"].(map[string]any)
	for _, p := range props {
		if m, ok := p.(map[string]any); ok {
			if s, ok := m["const"].(string); ok {
				return Exported(s)
			}
		}
	}
	return ""
}
