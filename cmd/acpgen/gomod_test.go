package main

import (
	"bufio"
	"bytes"
	"go/version"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestGoLineIsLowest checks that go.mod's go line is the highest go line of
// the modules it requires, no higher: a module that adds acpgen as a tool is
// raised to it, so it must be the lowest version that builds the tool. The
// dependencies' go lines come from their go.mod files in the module cache,
// without a download or a toolchain switch. README's "With Go X or newer"
// must say the same version.
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
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.GoVersion}}", "all")
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m all: %v", err)
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
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`With Go (\S+) or newer, declare acpgen as a tool`).FindSubmatch(readme)
	if m == nil {
		t.Fatal(`README.md does not say "With Go … or newer, declare acpgen as a tool"`)
	}
	if string(m[1]) != mod.Go.Version {
		t.Errorf("README.md says the tool needs Go %s, go.mod says %s", m[1], mod.Go.Version)
	}
}
