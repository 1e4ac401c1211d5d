package acpcheck

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

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
		t.Skip("the TypeScript SDK is not installed (make interop)")
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
	r := checkTS(t, "agent.mjs", AgentOptions{})
	if !r.OK() {
		t.Fatal(r.Text())
	}
	if vs := r.Find("agent.prompt.v1-stop-reason"); len(vs) != 1 || vs[0].Status != Pass {
		t.Errorf("no v1 turn judged: %+v", vs)
	}
}

// TestTypeScriptRouterAgent: the TypeScript SDK's version router serves
// both versions right up to prompts, which its fixture does not take.
func TestTypeScriptRouterAgent(t *testing.T) {
	r := checkTS(t, "agent_router.mjs", AgentOptions{NoPrompt: true})
	if !r.OK() {
		t.Fatal(r.Text())
	}
	for _, v := range []int{1, 2} {
		found := false
		for _, vd := range r.Find("agent.init.version-echo") {
			found = found || (vd.Version == v && vd.Status == Pass)
		}
		if !found {
			t.Errorf("version %d not negotiated:\n%s", v, r.Text())
		}
	}
}

// TestTypeScriptV2OnlyAgent documents a finding: the TypeScript SDK 2.4.0's
// v2 agent, without a v1 route, answers a v1 initialize with error -32022
// instead of the latest version it supports.
func TestTypeScriptV2OnlyAgent(t *testing.T) {
	r := checkTS(t, "agent_v2.mjs", AgentOptions{NoPrompt: true})
	found := false
	for _, v := range r.Find("agent.init.answer") {
		found = found || (v.Version == 1 && v.Status == Fail)
	}
	if !found {
		t.Errorf("the v1 initialize was answered right; update docs/acpcheck.md:\n%s", r.Text())
	}
	for _, v := range r.Verdicts {
		if v.Version == 2 && v.Status == Fail && v.Tier == Must {
			t.Errorf("v2: %s: %s", v.ID, v.Detail)
		}
	}
}
