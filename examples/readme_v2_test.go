package examples

import (
	"os/exec"
	"strings"
	"testing"
)

// TestReadmeExamplesV2 builds the v2 agent and client of README.md and
// runs one against the other.
func TestReadmeExamplesV2(t *testing.T) {
	agent := buildReadme(t, "### An agent in 30 lines, v2", "agentv2")
	client := buildReadme(t, "### A client, v2", "clientv2")
	out, err := exec.Command(client, agent).CombinedOutput()
	if err != nil {
		t.Fatalf("README v2 client with README v2 agent: %v\n%s", err, out)
	}
	if want := "hello\nstop: end_turn\n"; string(out) != want {
		t.Errorf("README v2 client printed %q, want %q", out, want)
	}
}

// TestReadmeBuildingMessagesV2 builds the code of README's "Building
// messages in v2" inside a function that declares what it uses, and checks
// that it sends the four messages (a text chunk, a tool call with a diff,
// a plan, the end of the turn), each in at most three lines.
func TestReadmeBuildingMessagesV2(t *testing.T) {
	const heading = "### Building messages in v2"
	code := goBlock(t, heading)
	blocks := strings.Split(strings.TrimSpace(code), "\n\n")
	if len(blocks) != 4 {
		t.Errorf("%d messages in README section %q, want 4 (a text chunk, a tool call with a diff, a plan, the end of the turn)", len(blocks), heading)
	}
	for _, b := range blocks {
		if n := strings.Count(b, "\n") + 1; n > 3 {
			t.Errorf("a message of README section %q takes %d lines, want at most 3:\n%s", heading, n, b)
		}
	}
	program := `package main

import (
	"context"

	"github.com/acpgen/acpgen/generated/acpv2"
)

func main() {}

func send(ctx context.Context, conn *acpv2.AgentSideConnection, id acpv2.SessionID) error {
` + code + `	return err
}
`
	buildProgram(t, heading, "messagesv2", program)
}

// TestReadmeDecodeExamples builds the code of README's "Example" (v1) and
// "Example in v2", each inside a function that takes the params.
func TestReadmeDecodeExamples(t *testing.T) {
	for _, c := range []struct{ heading, pkg, name string }{
		{"## Example", "acpv1", "decodev1"},
		{"### Example in v2", "acpv2", "decodev2"},
	} {
		program := `package main

import (
	"encoding/json"
	"fmt"

	"github.com/acpgen/acpgen/generated/` + c.pkg + `"
)

func main() {}

func handle(params []byte) error {
` + goBlock(t, c.heading) + `	return nil
}
`
		buildProgram(t, c.heading, c.name, program)
	}
}
