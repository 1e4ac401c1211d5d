package main

import (
	"bufio"
	"bytes"
	"go/version"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestGoLineIsLowest checks that go.mod's go line is the highest go line of
// the modules it requires, no higher: a module that adds acpgen as a tool is
// raised to it, so it must be the lowest version that builds the tool. The
// dependencies' go lines come from their go.mod files in the module cache,
// without a download or a toolchain switch. "With Go X or newer" in
// README.md and docs/generator.md must say the same version.
func TestGoLineIsLowest(t *testing.T) {
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	required := map[string]bool{}
	for _, r := range mod.Require {
		required[r.Mod.Path] = true
	}
	// A copy of go.mod and go.sum, which the go command may complete with
	// the go.sum lines of go.mod files it reads: the repository's stay as
	// they are.
	tmp := t.TempDir()
	sum, err := os.ReadFile("../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "go.mod"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-modfile="+filepath.Join(tmp, "go.mod"), "-m", "-f", "{{.Path}} {{.GoVersion}}", "all")
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m all, offline: %v\n%s\nThe go.mod files of the module graph must be in the module cache: make test puts them there (go mod download, go list -m all).", err, stderr.Bytes())
	}
	highest, by := "go1", ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		path, goLine, _ := strings.Cut(sc.Text(), " ")
		if !required[path] || goLine == "" {
			continue
		}
		if version.Compare("go"+goLine, highest) > 0 {
			highest, by = "go"+goLine, path
		}
	}
	if by == "" {
		t.Fatal("no go line found among the required modules")
	}
	if got := "go" + mod.Go.Version; got != highest {
		t.Errorf("go.mod says go %s; the highest go line of its requirements is %s (%s)", mod.Go.Version, strings.TrimPrefix(highest, "go"), by)
	}
	// README.md and the generator's page both say which Go the tool needs.
	for _, doc := range []string{"README.md", "docs/generator.md"} {
		text, err := os.ReadFile("../../" + doc)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`With Go (\S+) or newer, declare acpgen as a tool`).FindSubmatch(text)
		if m == nil {
			t.Fatalf(`%s does not say "With Go … or newer, declare acpgen as a tool"`, doc)
		}
		if string(m[1]) != mod.Go.Version {
			t.Errorf("%s says the tool needs Go %s, go.mod says %s", doc, m[1], mod.Go.Version)
		}
	}
}
