package e2e

import (
	"os/exec"
	"testing"
)

// TestReadmeExamplesV2 builds the v2 agent and client of README.md, and
// those of docs/getting-started.md, and runs each client against its agent.
func TestReadmeExamplesV2(t *testing.T) {
	for _, c := range []struct{ path, agent, client string }{
		{readme, "## A v2 agent", "## A v2 client"},
		{gettingStarted, "## An agent in 30 lines, v2", "## A client, v2"},
	} {
		agent := buildReadme(t, c.path, c.agent, "agentv2")
		client := buildReadme(t, c.path, c.client, "clientv2")
		out, err := exec.Command(client, agent).CombinedOutput()
		if err != nil {
			t.Fatalf("the v2 client with the v2 agent of %s: %v\n%s", c.path, err, out)
		}
		if want := "hello\nstop: end_turn\n"; string(out) != want {
			t.Errorf("the v2 client of %s printed %q, want %q", c.path, out, want)
		}
	}
}

// TestReadmeBuildingMessagesV2 checks that the function of "Building
// messages in v2" in docs/getting-started.md sends its four messages (a
// text chunk, a tool call with a diff, a plan, the end of the turn), each
// in at most three lines. TestDocsGoBlocks compiles it.
func TestReadmeBuildingMessagesV2(t *testing.T) {
	checkMessages(t, "## Building messages in v2", 4)
}

// TestReadmeDecodeExamples builds and runs the programs of "Reading a
// message" in docs/decoding.md, v1 and v2: each decodes a session update
// and prints the agent's text.
func TestReadmeDecodeExamples(t *testing.T) {
	for _, c := range []struct{ heading, name, want string }{
		{"## Reading a message", "decodev1", "agent says: Hello\n"},
		{"### Reading a message in v2", "decodev2", "agent says: Hello in message m1\n"},
	} {
		bin := buildReadme(t, decodingPage, c.heading, c.name)
		out, err := exec.Command(bin).CombinedOutput()
		if err != nil {
			t.Fatalf("the program of %q: %v\n%s", c.heading, err, out)
		}
		if string(out) != c.want {
			t.Errorf("the program of %q printed %q, want %q", c.heading, out, c.want)
		}
	}
}
