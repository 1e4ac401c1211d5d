package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/internal/node"
)

// TestNewcomerV2 is the path of a new user of v2: from an empty module,
// generate v2 as package acp with `go tool acpgen`, build the README's
// v2 agent against it, and drive that agent over stdio with the
// TypeScript SDK's v2 client (interop/readme_client_v2.mjs). Without node the
// last step skips; -short skips it all.
func TestNewcomerV2(t *testing.T) {
	m := newUserModule(t)
	m.write("internal/acp/generate.go", "// Package acp holds the ACP v2 types.\npackage acp\n\n//go:generate go tool acpgen -version v2 -package acp -out .\n")
	m.run("mod", "tidy")
	m.run("generate", "./...")
	agent := readmeBlock(t, "## A v2 agent")
	const readmeImport = `"github.com/acpgen/acpgen/generated/acpv2"`
	if !strings.Contains(agent, readmeImport) {
		t.Fatalf("the README's v2 agent does not import %s:\n%s", readmeImport, agent)
	}
	if n := strings.Count(agent, "\n"); n > 45 {
		t.Errorf("the README's v2 agent takes %d lines", n)
	}
	m.write("cmd/agent/main.go", strings.Replace(agent, readmeImport, `acpv2 "example.com/user/internal/acp"`, 1))
	m.run("mod", "tidy")
	bin := filepath.Join(m.dir, "agent")
	m.run("build", "-o", bin, "./cmd/agent")
	m.run("vet", "./...")

	nodeBin := node.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeBin, filepath.Join(node.Dir(), "readme_client_v2.mjs"), bin)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the TypeScript v2 client with the README's v2 agent: %v\n%s", err, out)
	}
	var got struct {
		Initialize struct {
			ProtocolVersion int `json:"protocolVersion"`
		} `json:"initialize"`
		SessionID string `json:"sessionId"`
		Prompt    struct {
			MessageID string `json:"messageId"`
		} `json:"prompt"`
		StopReason string `json:"stopReason"`
		Chunks     []struct {
			MessageID string `json:"messageId"`
			Text      string `json:"text"`
		} `json:"chunks"`
		Updates []newcomerUpdate `json:"updates"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the client printed %s: %v", out, err)
	}
	checkNewcomerV2(t, got.Initialize.ProtocolVersion, got.SessionID, got.Prompt.MessageID, got.StopReason, got.Updates, out)
	if len(got.Chunks) != 1 || got.Chunks[0].Text != "hello from TypeScript" {
		t.Errorf("the agent's chunks: %s", out)
	}
}

// newcomerUpdate is a session update as interop/readme_client_v2.mjs
// reports it.
type newcomerUpdate struct {
	SessionID     string `json:"sessionId"`
	SessionUpdate string `json:"sessionUpdate"`
	MessageID     string `json:"messageId"`
	State         string `json:"state"`
	StopReason    string `json:"stopReason"`
	Text          string `json:"text"`
}

// The ids acpv2.TurnRunner makes: a prefix and 32 random hex digits.
var (
	sessionIDShape = regexp.MustCompile(`^sess_[0-9a-f]{32}$`)
	messageIDShape = regexp.MustCompile(`^msg_[0-9a-f]{32}$`)
)

// checkNewcomerV2 checks what the README's v2 agent, on acpv2.TurnRunner,
// sent for one prompt: a session and a message id of the runner's shape,
// then, in that session, the user message with the prompt's id and text,
// running, the echo as a chunk of an agent message of its own id, and idle
// with end_turn.
func checkNewcomerV2(t *testing.T, version int, session, user, stop string, updates []newcomerUpdate, out []byte) {
	t.Helper()
	if version != 2 || !sessionIDShape.MatchString(session) || !messageIDShape.MatchString(user) {
		t.Errorf("initialize, session/new and session/prompt gave %s", out)
	}
	if stop != "end_turn" {
		t.Errorf("the turn ended with %q, want end_turn: %s", stop, out)
	}
	if len(updates) != 4 {
		t.Fatalf("the agent sent %d session updates, want 4 (user_message, running, a chunk, idle): %s", len(updates), out)
	}
	reply := updates[2].MessageID
	want := []newcomerUpdate{
		{SessionID: session, SessionUpdate: "user_message", MessageID: user, Text: "hello from TypeScript"},
		{SessionID: session, SessionUpdate: "state_update", State: "running"},
		{SessionID: session, SessionUpdate: "agent_message_chunk", MessageID: reply},
		{SessionID: session, SessionUpdate: "state_update", State: "idle", StopReason: "end_turn"},
	}
	for i, u := range updates {
		if u != want[i] {
			t.Errorf("session update %d is %+v, want %+v", i, u, want[i])
		}
	}
	if !messageIDShape.MatchString(reply) || reply == user {
		t.Errorf("the agent's reply has id %q, want a new message id (the user message is %q)", reply, user)
	}
}

// readmeBlock returns the Go code block that follows heading in README.md.
func readmeBlock(t *testing.T, heading string) string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
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
