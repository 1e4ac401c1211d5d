//go:build unstable_mcp_over_acp || unstable

// Package mcpexample tests the MCP over ACP example: examples/mcp/client
// gives examples/mcp/agent one tool through the ACP connection.
package mcpexample

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// build builds the example command dir with the feature's tag.
func build(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), dir)
	cmd := exec.Command("go", "build", "-tags", "unstable_mcp_over_acp", "-o", out, "./"+dir)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./%s: %v\n%s", dir, err, b)
	}
	return out
}

func TestClientGivesAgentATool(t *testing.T) {
	client, agent := build(t, "client"), build(t, "agent")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, client, "-prompt", "the tool lives in the client", "--", agent)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client: %v\n%s", err, stderr.Bytes())
	}
	if want := "word_count says: 6\nstop: end_turn\n"; string(out) != want {
		t.Errorf("client printed %q, want %q", out, want)
	}
}
