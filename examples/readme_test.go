package examples

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

var update = flag.Bool("update", false, "rewrite the method table of README.md")

const readme = "../README.md"

// TestReadmeSides checks the table of README.md that maps each method to
// its interface and Go method in each package; -update rewrites it.
func TestReadmeSides(t *testing.T) {
	table := sidesTable(t)
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?s)(<!-- sides:begin[^\n]*-->\n).*?(<!-- sides:end -->)`)
	if !re.Match(data) {
		t.Fatal("README.md has no sides:begin and sides:end markers")
	}
	want := re.ReplaceAll(data, []byte("${1}"+strings.ReplaceAll(table, "$", "$$")+"${2}"))
	if bytes.Equal(data, want) {
		return
	}
	if *update {
		if err := os.WriteFile(readme, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the method table of README.md is stale: run go test ./examples -run TestReadmeSides -update")
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

// goBlock returns the Go code block that follows heading in README.md.
func goBlock(t *testing.T, heading string) string {
	t.Helper()
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no heading %q", heading)
	}
	_, code, ok := strings.Cut(after, "```go\n")
	if !ok {
		t.Fatalf("no Go block after %q", heading)
	}
	code, _, _ = strings.Cut(code, "```\n")
	return code
}

// buildReadme builds the program of a README code block, as a package of
// this module that exists only in a build overlay.
func buildReadme(t *testing.T, heading, name string) string {
	t.Helper()
	return buildProgram(t, heading, name, goBlock(t, heading))
}

// buildProgram builds program, from the README section heading, as the
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
		t.Fatalf("the code of README section %q does not build: %v\n%s", heading, err, out)
	}
	return bin
}

// TestReadmeExamples builds the agent and the client of README.md and runs
// one against the other.
func TestReadmeExamples(t *testing.T) {
	agent := buildReadme(t, "### An agent in 30 lines", "agent")
	client := buildReadme(t, "### A client", "client")
	out, err := exec.Command(client, agent).CombinedOutput()
	if err != nil {
		t.Fatalf("README client with README agent: %v\n%s", err, out)
	}
	if want := "hello\nstop: end_turn\n"; string(out) != want {
		t.Errorf("README client printed %q, want %q", out, want)
	}
}

// TestReadmeBuildingMessages builds the code of README's "Building
// messages" inside a function that declares what it uses, and checks that
// each message it sends (the blocks between blank lines) takes at most
// three lines.
func TestReadmeBuildingMessages(t *testing.T) {
	const heading = "### Building messages"
	code := goBlock(t, heading)
	blocks := strings.Split(strings.TrimSpace(code), "\n\n")
	if len(blocks) != 3 {
		t.Errorf("%d messages in README section %q, want 3 (a text chunk, a tool call with a diff, a plan)", len(blocks), heading)
	}
	for _, b := range blocks {
		if n := strings.Count(b, "\n") + 1; n > 3 {
			t.Errorf("a message of README section %q takes %d lines, want at most 3:\n%s", heading, n, b)
		}
	}
	program := `package main

import (
	"context"

	"github.com/acpgen/acpgen/generated/acpv1"
)

func main() {}

func send(ctx context.Context, conn *acpv1.AgentSideConnection, id acpv1.SessionID, src string) error {
` + code + `	return err
}
`
	buildProgram(t, heading, "messages", program)
}
