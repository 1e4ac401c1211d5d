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

// TestLead covers each way Lead joins a first sentence to its identifier.
func TestLead(t *testing.T) {
	for _, c := range []struct{ ident, in, want string }{
		{"X", "The contents of a resource.", "X holds the contents of a resource."},
		{"X", "The status of a task", "X is the status of a task."},
		{"X", "A session id.", "X is a session id."},
		{"X", "Whether the agent loads.", "X reports whether the agent loads."},
		{"X", "Cancels an ongoing request.", "X cancels an ongoing request."},
		{"X", "Requests exchanged between peers.", "X holds the requests exchanged between peers."},
		{"X", "Requests structured input.", "X requests structured input."},
		{"X", "Agent supports images.", "X means the agent supports images."},
		{"X", "Allow this operation and remember the choice.", "X allows this operation and remembers the choice."},
		{"X", "Filter sessions by state.", "X filters sessions by state."},
		{"X", "Forks an existing session.", "X forks an existing session."},
		{"X", "Commands the agent can execute.", "X holds the commands the agent can execute."},
		{"X", "Reading files or data.", "X is for reading files or data."},
		{"X", "Anything.", "X is anything."},
		{"X", `the "cancelled" variant of Y.`, `X is the "cancelled" variant of Y.`},
		{"X", "X means the work stopped.", "X means the work stopped."},
		{"X", "Working directory for the command.", "X is the working directory for the command."},
		{"X", "Different types of updates that can be sent.", "X is one of the updates that can be sent."},
		{"X", "Categories of tools that can be invoked.", "X is one of the categories of tools that can be invoked."},
		{"X", "All possible requests that a client can send.", "X is one of the possible requests that a client can send."},
		{"X", "The session this request is tied to.", "X is the session this request is tied to."},
		{"X", "The current mode of the session has changed", "X means the current mode of the session has changed."},
		{"ErrorCodeParseError", "Parse error: Invalid JSON was received.", "ErrorCodeParseError means invalid JSON was received."},
		{"X", "On an outgoing view, the id of the message.", "X is, on an outgoing view, the id of the message."},
		{"X", "Intended for programmatic use.", "X is intended for programmatic use."},
		{"X", "Google Vertex AI API protocol.", "X is the Google Vertex AI API protocol."},
		{"X", "OpenAI API protocol.", "X is the OpenAI API protocol."},
		{"X", "How the agent combines prompts.", "X says how the agent combines prompts."},
		{"X", "Unique identifier for a call.", "X is the unique identifier for a call."},
		{"X", "MIME type of the data.", "X is the MIME type of the data."},
		{"X", "X produced by the call.", "X produced by the call."},
		{"X", "Deprecated: gone.", "X is deprecated.\n\nDeprecated: gone."},
		{"X", "The _meta property is reserved.", "X is reserved."},
		{"X", "Session options have been updated.", "X means session options have been updated."},
		{"X", "Content blocks represent information.", "X is one of the content blocks that represent information."},
		{"X", "The process exit code (may be null).", "X is the process exit code (may be null)."},
		{"X", "Summary.\n\nMore text.", "X is the summary.\n\nMore text."},
		{"X", "Client support for updates.", "X is the client support for updates."},
		{"X", "", ""},
	} {
		if got := Lead(c.ident, c.in); got != c.want {
			t.Errorf("Lead(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

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
		doc := goDoc(d.text, func(string) (string, bool) { return "", false })
		in := firstSentence(doc)
		lead := Lead(d.ident, doc)
		out := firstSentence(lead)
		row := in + "\n\t" + out + "\n"
		if seen[row] {
			continue
		}
		seen[row] = true
		rows = append(rows, row)
		if problem := leadProblem(d.ident, out); problem != "" {
			t.Errorf("%s %q: %q: %s", d.ident, in, out, problem)
		}
		if again := Lead(d.ident, lead); again != lead {
			t.Errorf("Lead is not idempotent: %q becomes %q", out, firstSentence(again))
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
					out = walkDocs(m[n], exported(n), out)
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
		return exported(s)
	}
	if s, ok := v["const"].(string); ok {
		return exported(s)
	}
	props, _ := v["properties"].(map[string]any)
	for _, p := range props {
		if m, ok := p.(map[string]any); ok {
			if s, ok := m["const"].(string); ok {
				return exported(s)
			}
		}
	}
	return ""
}
