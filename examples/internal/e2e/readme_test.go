package e2e

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/pipeline"
	"github.com/acpgen/acpgen/schema"
)

var update = flag.Bool("update", false, "rewrite the tables of the docs that tests maintain")

// The Markdown files whose code and tables these tests check.
const (
	readme         = "../../../README.md"
	gettingStarted = "../../../docs/getting-started.md"
	networkPage    = "../../../docs/network.md"
	versionsPage   = "../../../docs/versions.md"
	sessionsPage   = "../../../docs/sessions.md"
	decodingPage   = "../../../docs/decoding.md"
)

// TestReadmeSides checks the table of docs/getting-started.md that maps
// each method to its interface and Go method in each package; -update
// rewrites it.
func TestReadmeSides(t *testing.T) {
	checkTable(t, gettingStarted, "sides", sidesTable(t), "TestReadmeSides")
}

// checkTable checks that the table between the markers <!-- name:begin …-->
// and <!-- name:end --> of the Markdown file path is table; with -update it
// rewrites it. test names the test that does.
func checkTable(t *testing.T, path, name, table, test string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?s)(<!-- ` + name + `:begin[^\n]*-->\n).*?(<!-- ` + name + `:end -->)`)
	if !re.Match(data) {
		t.Fatalf("%s has no %s:begin and %s:end markers", path, name, name)
	}
	want := re.ReplaceAll(data, []byte("${1}"+strings.ReplaceAll(table, "$", "$$")+"${2}"))
	if bytes.Equal(data, want) {
		return
	}
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the %s table of %s is stale: run go test ./examples/internal/e2e -run %s -update", name, strings.TrimPrefix(path, "../../../"), test)
}

// sidesTable renders, per method an agent or a client handles, its interface
// and Go method in acpv1 and acpv2, with the build tags of unstable ones.
func sidesTable(t *testing.T) string {
	versions, err := pipeline.Versions(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	features, err := pipeline.Features(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	removed, err := pipeline.Removed(schema.FS)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ method, kind, side string }
	cells := map[row][]string{}
	for i, v := range versions {
		p, _, err := pipeline.Build(schema.FS, v, features[v.Name], removed[v.Name])
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range p.Sides {
			for _, m := range s.Handles {
				kind := "request"
				if m.Kind == ir.Notification {
					kind = "notification"
				}
				r := row{m.Name, kind, s.Name}
				if cells[r] == nil {
					cells[r] = make([]string, len(versions))
				}
				iface := s.GoName
				if !m.Required {
					iface = m.Interface
				}
				cell := fmt.Sprintf("`%s.%s`", iface, m.GoName)
				if m.Unstable {
					cell += " (" + strings.Join(m.Tags(), ", ") + ")"
				}
				cells[r][i] = cell
			}
		}
	}
	var rows []row
	for r := range cells {
		rows = append(rows, r)
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].side != rows[j].side {
			return rows[i].side < rows[j].side
		}
		if rows[i].method != rows[j].method {
			return rows[i].method < rows[j].method
		}
		return rows[i].kind < rows[j].kind
	})
	var b strings.Builder
	b.WriteString("| method | handled by |")
	for _, v := range versions {
		b.WriteString(" " + v.Package + " interface.method |")
	}
	b.WriteString("\n|---|---|")
	for range versions {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| `%s` (%s) | %s |", r.method, r.kind, r.side)
		for _, c := range cells[r] {
			if c == "" {
				c = "—"
			}
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// goBlock returns the Go code block that follows heading in the Markdown
// file path.
func goBlock(t *testing.T, path, heading string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s has no heading %q", path, heading)
	}
	_, code, ok := strings.Cut(after, "```go\n")
	if !ok {
		t.Fatalf("no Go block after %q", heading)
	}
	code, _, _ = strings.Cut(code, "```\n")
	return code
}

// buildReadme builds the program of the code block after heading in the
// Markdown file path, as a package of this module that exists only in a
// build overlay.
func buildReadme(t *testing.T, path, heading, name string) string {
	t.Helper()
	return buildProgram(t, heading, name, goBlock(t, path, heading))
}

// buildProgram builds program, from the docs section heading, as the
// package ./readme/name that exists only in a build overlay.
func buildProgram(t *testing.T, heading, name, program string) string {
	t.Helper()
	dir := t.TempDir()
	abs, err := filepath.Abs(filepath.Join("readme", name, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {abs: src}})
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, name)
	out, err := exec.Command("go", "build", "-overlay", filepath.Join(dir, "overlay.json"), "-o", bin, "./readme/"+name).CombinedOutput()
	if err != nil {
		t.Fatalf("the code of the docs section %q does not build: %v\n%s", heading, err, out)
	}
	return bin
}

// TestReadmeExamples builds the v1 agent and client of
// docs/getting-started.md and runs one against the other.
func TestReadmeExamples(t *testing.T) {
	agent := buildReadme(t, gettingStarted, "## An agent in 30 lines", "agent")
	client := buildReadme(t, gettingStarted, "## A client", "client")
	out, err := exec.Command(client, agent).CombinedOutput()
	if err != nil {
		t.Fatalf("the v1 client with the v1 agent of docs/getting-started.md: %v\n%s", err, out)
	}
	if want := "hello\nstop: end_turn\n"; string(out) != want {
		t.Errorf("the v1 client of docs/getting-started.md printed %q, want %q", out, want)
	}
}

// TestReadmeBuildingMessages checks that the function of "Building
// messages" in docs/getting-started.md sends its three messages (a text
// chunk, a tool call with a diff, a plan: the parts between blank lines)
// in at most three lines each. TestDocsGoBlocks compiles it.
func TestReadmeBuildingMessages(t *testing.T) {
	checkMessages(t, "## Building messages", 3)
}

// checkMessages checks that the body of the function send in the Go block
// after heading in docs/getting-started.md has want parts between blank
// lines, each a message of at most three lines, and a last line that
// returns err.
func checkMessages(t *testing.T, heading string, want int) {
	t.Helper()
	code := goBlock(t, gettingStarted, heading)
	_, body, ok := strings.Cut(code, "\nfunc send(")
	if !ok {
		t.Fatalf("the Go block of %q has no func send", heading)
	}
	_, body, _ = strings.Cut(body, "{\n")
	body, _, ok = strings.Cut(body, "\n\treturn err\n}\n")
	if !ok {
		t.Fatalf("the func send of %q does not end with return err", heading)
	}
	blocks := strings.Split(strings.TrimSpace(body), "\n\n")
	if len(blocks) != want {
		t.Errorf("%d messages in the section %q, want %d", len(blocks), heading, want)
	}
	for _, b := range blocks {
		if n := strings.Count(b, "\n") + 1; n > 3 {
			t.Errorf("a message of the section %q takes %d lines, want at most 3:\n%s", heading, n, b)
		}
	}
}
