package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
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
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the client printed %s: %v", out, err)
	}
	if got.Initialize.ProtocolVersion != 2 || got.SessionID != "session-1" || got.Prompt.MessageID != "prompt-1" {
		t.Errorf("initialize, session/new and session/prompt gave %s", out)
	}
	if got.StopReason != "end_turn" {
		t.Errorf("the turn ended with %q, want end_turn: %s", got.StopReason, out)
	}
	if len(got.Chunks) != 1 || got.Chunks[0].Text != "hello from TypeScript" || got.Chunks[0].MessageID != "reply-1" {
		t.Errorf("the agent's chunks: %s", out)
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
