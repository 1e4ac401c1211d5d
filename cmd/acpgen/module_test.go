package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// userModule is an empty module of a user of acpgen, in a temporary
// directory, that declares acpgen as a tool (through a replace to this
// checkout, as the module is not fetched from a proxy here).
type userModule struct {
	t             *testing.T
	goCmd         string
	dir, checkout string
}

// newUserModule makes the module; it skips t with -short or without the
// go command.
func newUserModule(t *testing.T) *userModule {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a module with the go command")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	checkout, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	m := &userModule{t: t, goCmd: goCmd, dir: t.TempDir(), checkout: checkout}
	m.run("mod", "init", "example.com/user")
	m.run("mod", "edit",
		"-require=github.com/acpgen/acpgen@v0.0.0-00010101000000-000000000000",
		"-replace=github.com/acpgen/acpgen="+checkout,
		"-tool=github.com/acpgen/acpgen/cmd/acpgen")
	return m
}

// runIn runs the go command in directory sub of the module and returns its
// output, failing the test when it fails.
func (m *userModule) runIn(sub string, args ...string) string {
	m.t.Helper()
	cmd := exec.Command(m.goCmd, args...)
	cmd.Dir = filepath.Join(m.dir, sub)
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		m.t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// run runs the go command at the module's root.
func (m *userModule) run(args ...string) string {
	m.t.Helper()
	return m.runIn(".", args...)
}

// write writes a file of the module, name slash-separated.
func (m *userModule) write(name, src string) {
	m.t.Helper()
	p := filepath.Join(m.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		m.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		m.t.Fatal(err)
	}
}
