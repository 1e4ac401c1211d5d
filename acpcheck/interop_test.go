package acpcheck

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpexec"
	"github.com/acpgen/acpgen/internal/node"
	"github.com/acpgen/acpgen/internal/sandbox"
)

// tsAgent returns the target that runs a TypeScript SDK agent of interop/
// with node, in a sandbox with no network; it skips without node, the
// installed SDK (make interop) or a sandbox.
func tsAgent(t *testing.T, script string) Target {
	t.Helper()
	if testing.Short() {
		t.Skip("runs node")
	}
	sandbox.Node(t)
	dir, err := filepath.Abs("../interop")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk")); err != nil {
		node.Missing(t, "the pinned TypeScript SDK (interop/node_modules) is", "make interop", err)
	}
	s := sandbox.New(t)
	return &CommandTarget{Path: "node", Args: []string{filepath.Join(dir, script)}, Make: s.Command}
}

func checkTS(t *testing.T, script string, opts AgentOptions) *Report {
	t.Helper()
	target := tsAgent(t, script)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return CheckAgent(ctx, target, opts)
}

// TestTypeScriptEchoAgent: the TypeScript SDK's v1 echo agent holds every
// MUST, prompt turns included.
func TestTypeScriptEchoAgent(t *testing.T) {
	t.Parallel()
	r := checkTS(t, "agent.mjs", AgentOptions{})
	if !r.OK() {
		t.Fatal(r.Text())
	}
	if vs := r.Find(AgentPromptV1StopReason); len(vs) != 1 || vs[0].Status != Pass {
		t.Errorf("no v1 turn judged: %+v", vs)
	}
}

// TestTypeScriptRouterAgent: the TypeScript SDK's version router serves
// both versions right up to prompts, which its fixture does not take.
func TestTypeScriptRouterAgent(t *testing.T) {
	t.Parallel()
	r := checkTS(t, "agent_router.mjs", AgentOptions{NoPrompt: true})
	if !r.OK() {
		t.Fatal(r.Text())
	}
	for _, v := range []int{1, 2} {
		found := false
		for _, vd := range r.Find(AgentInitVersionEcho) {
			found = found || (vd.Version == v && vd.Status == Pass)
		}
		if !found {
			t.Errorf("version %d not negotiated:\n%s", v, r.Text())
		}
	}
}

// TestTypeScriptV2OnlyAgent: the TypeScript SDK 2.4.0's v2 agent, without
// a v1 route, answers a v1 initialize with error -32022, a version it does
// not offer, which is not applicable rather than a failure.
func TestTypeScriptV2OnlyAgent(t *testing.T) {
	t.Parallel()
	r := checkTS(t, "agent_v2.mjs", AgentOptions{NoPrompt: true})
	found := false
	for _, v := range r.Find(AgentInitAnswer) {
		found = found || (v.Version == 1 && v.Status == NotApplicable)
	}
	if !found {
		t.Errorf("version 1 of a v2-only agent is not reported not applicable:\n%s", r.Text())
	}
	for _, v := range r.Verdicts {
		if v.Version == 2 && v.Status == Fail && v.Tier == Must {
			t.Errorf("v2: %s: %s", v.ID, v.Detail)
		}
	}
}

// TestTypeScriptClients runs the TypeScript SDK's interop clients against
// the kit in client mode, in the sandbox. They keep going after unknown and
// custom session updates and answer permission requests right; their cases
// also send session/new before initialize (v1) and a cwd that is a number
// (both), on purpose, which the kit reports as theirs.
func TestTypeScriptClients(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs node")
	}
	sandbox.Node(t)
	dir, err := filepath.Abs("../interop")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk")); err != nil {
		node.Missing(t, "the pinned TypeScript SDK (interop/node_modules) is", "make interop", err)
	}
	kit := buildExample(t, "acpcheck")
	for _, tc := range []struct {
		script  string
		unknown ID
		fails   []ID
	}{
		{"client.mjs", ClientUpdatesUnknownV1, []ID{ClientInitFirst, ClientSessionCWD, ClientSchemaValid}},
		{"client_v2.mjs", ClientUpdatesUnknownV2, []ID{ClientSessionCWD, ClientSchemaValid}},
	} {
		s := sandbox.New(t)
		report := filepath.Join(t.TempDir(), "report.json")
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := s.Command("node", filepath.Join(dir, tc.script), kit, "client", "-json", report, "-report", os.DevNull)
		p, err := acpexec.Start(ctx, cmd, &acpexec.Options{Stderr: io.Discard})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, p)
		_ = p.Close()
		cancel()
		data, err := os.ReadFile(report)
		if err != nil {
			t.Fatalf("%s: %v", tc.script, err)
		}
		var r Report
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		passed, failed := map[ID]bool{}, map[ID]bool{}
		for _, v := range r.Verdicts {
			passed[v.ID] = passed[v.ID] || v.Status == Pass
			failed[v.ID] = failed[v.ID] || v.Status == Fail
		}
		for _, id := range []ID{tc.unknown, ClientPermissionAnswer, ClientRPCMethodNotFound, ClientRPCIDString} {
			if !passed[id] || failed[id] {
				t.Errorf("%s: %s did not pass", tc.script, id)
			}
		}
		for _, id := range tc.fails {
			if !failed[id] {
				t.Errorf("%s: %s did not fail, the finding is gone: update docs/acpcheck.md", tc.script, id)
			}
		}
	}
}
