package e2e

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestClientPrintsPlans has the example agent send a plan ("/plan a; b")
// and checks the lines the example client prints for it: a v1 plan for a
// client without plan operations (the agent leaves out its markdown plan
// and the removal), and with -tags unstable_plan_operations (both built
// with it) the items plan, the markdown plan and its removal, sent as
// plan_update and plan_removed.
func TestClientPrintsPlans(t *testing.T) {
	for _, c := range []struct {
		tags, want string
	}{
		{"", "/plan a; b\nplan main: items 2\npermission: allow\nstop: end_turn\n"},
		{"unstable_plan_operations", "/plan a; b\nplan main: items 2\nplan notes: markdown\nplan notes: removed\npermission: allow\nstop: end_turn\n"},
	} {
		agent, client := binaries(t)
		if c.tags != "" {
			agent, client = taggedBinaries(t, c.tags)
		}
		cmd := exec.Command(client, "-prompt", "/plan a; b", "--", agent)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tags %q: client: %v\n%s", c.tags, err, stderr.Bytes())
		}
		if string(out) != c.want {
			t.Errorf("tags %q: client printed %q, want %q", c.tags, out, c.want)
		}
	}
}

// taggedBinaries builds the agent and the client with build tags tags.
func taggedBinaries(t *testing.T, tags string) (agent, client string) {
	dir := t.TempDir()
	for _, name := range []string{"agent", "client"} {
		out, err := exec.Command("go", "build", "-tags", tags, "-o", filepath.Join(dir, name), "../../"+name).CombinedOutput()
		if err != nil {
			t.Fatalf("building %s with -tags %s: %v\n%s", name, tags, err, out)
		}
	}
	return filepath.Join(dir, "agent"), filepath.Join(dir, "client")
}

// TestReadmeSessions builds the client of docs/sessions.md,
// checks that it takes under 30 lines after its imports (blank lines
// aside), and runs it against the example agent with a plan.
func TestReadmeSessions(t *testing.T) {
	const heading = "## A client that follows its sessions"
	code := goBlock(t, sessionsPage, heading)
	_, body, _ := strings.Cut(code, "\n)\n")
	lines := 0
	for _, l := range strings.Split(body, "\n") {
		if strings.TrimSpace(l) != "" {
			lines++
		}
	}
	if lines >= 30 {
		t.Errorf("the client of docs/sessions.md section %q takes %d lines after its imports, want under 30", heading, lines)
	}
	client := buildReadme(t, sessionsPage, heading, "sessions")
	agent, _ := binaries(t)
	out, err := exec.Command(client, "/plan read the code; fix the bug", agent).CombinedOutput()
	if err != nil {
		t.Fatalf("the sessions client of docs/sessions.md with the example agent: %v\n%s", err, out)
	}
	if want := "plan main: 2 entries\n"; string(out) != want {
		t.Errorf("the sessions client of docs/sessions.md printed %q, want %q", out, want)
	}
}
