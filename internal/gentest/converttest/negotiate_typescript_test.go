package converttest

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/convert"
	"github.com/acpgen/acpgen/internal/node"
)

// TestNegotiateWithTypeScriptAgents negotiates with agents written with the
// TypeScript SDK: its v1 agent (interop/agent.mjs) continues on v1, its v2
// agent (interop/agent_v2.mjs) on v2.
func TestNegotiateWithTypeScriptAgents(t *testing.T) {
	nodeBin := node.Require(t)
	for script, version := range map[string]int{"agent.mjs": 1, "agent_v2.mjs": 2} {
		t.Run(script, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, nodeBin, filepath.Join(node.Dir(), script))
			w, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			r, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Wait()
			defer w.Close()
			n, err := convert.Negotiate(ctx, w, r, offer())
			if err != nil {
				t.Fatal(err)
			}
			if n.Version != version {
				t.Fatalf("negotiated v%d, want v%d", n.Version, version)
			}
		})
	}
}
