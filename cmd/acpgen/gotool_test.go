package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoTool follows "Use it in your module" of docs/generator.md from an empty
// module: acpgen declared as a tool (through a replace to this checkout, as
// the module is not fetched from a proxy here), a go:generate line that
// runs `go tool acpgen`, then go generate, go build, go vet with and
// without the unstable tag, and `go tool acpgen -check`; beside it, both
// versions with the convert package, and one version with a feature baked
// in; no test file is generated. It needs the go command and the module
// cache or proxy for acpgen's dependencies; -short skips it.
func TestGoTool(t *testing.T) {
	m := newUserModule(t)
	dir, checkout := m.dir, m.checkout
	runIn, run, write := m.runIn, m.run, m.write
	write("internal/acp/generate.go", "package acp\n\n//go:generate go tool acpgen -version v1 -package acp -out .\n")
	// Both versions with no unstable feature, and the convert package
	// between them, importing them from this module.
	write("internal/proto/generate.go", "package proto\n\n//go:generate go tool acpgen -out . -features none\n")
	// v2 with one feature compiled in.
	write("internal/acp2/generate.go", "package acp2\n\n//go:generate go tool acpgen -version v2 -package acp2 -out . -features unstable_session_fork -bake\n")
	run("mod", "tidy")
	run("generate", "./...")
	// Without -tests, no test file lands in the user's packages.
	tests, err := filepath.Glob(filepath.Join(dir, "internal", "*", "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) > 0 {
		t.Errorf("go generate wrote test files without -tests: %v", tests)
	}
	// A program that uses the generated packages.
	write("main.go", `package main

import (
	"fmt"
	"os"

	"example.com/user/internal/acp"
	"example.com/user/internal/acp2"
	"example.com/user/internal/proto/convert"
)

var (
	_ = acp2.ForkSessionRequest{}
	_ = convert.PlanToV2
)

func main() {
	msg, err := acp.DecodeMessage([]byte(os.Args[1]), "")
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	n := msg.Params.(*acp.SessionNotification)
	fmt.Printf("%T\n", n.Update.Value)
}
`)
	run("mod", "tidy")
	run("build", "./...")
	run("vet", "./...")
	run("vet", "-tags", "unstable", "./...")
	got := run("run", ".", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}`)
	if want := "*acp.SessionUpdatePlan\n"; got != want {
		t.Errorf("the program printed %q, want %q", got, want)
	}
	// -check with the arguments of the go:generate line, where it runs: the
	// header records the command line, so it is part of the output.
	runIn("internal/acp", "tool", "acpgen", "-check", "-version", "v1", "-package", "acp", "-out", ".")

	types, err := os.ReadFile(filepath.Join(dir, "internal", "acp", "types.go"))
	if err != nil {
		t.Fatal(err)
	}
	head := string(types[:strings.Index(string(types), "\npackage ")])
	for _, want := range []string{
		"// Generator: github.com/acpgen/acpgen (devel)\n",
		"// Command: acpgen -out . -package acp -version v1\n",
		"// Schema: @agentclientprotocol/sdk ",
	} {
		if !strings.Contains(head, want) {
			t.Errorf("header lacks %q:\n%s", want, head)
		}
	}
	for _, abs := range []string{dir, checkout} {
		if strings.Contains(head, abs) {
			t.Errorf("header has the absolute path %s:\n%s", abs, head)
		}
	}
}
