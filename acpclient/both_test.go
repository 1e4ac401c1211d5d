//go:build unix

package acpclient

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acplaunch"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
	"github.com/acpgen/acpgen/internal/node"
)

// recorder is a client written once, against v1: it records the text of
// the agent's chunks and allows what the agent asks.
type recorder struct {
	mu    sync.Mutex
	lines []string
}

func (r *recorder) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	if c, ok := n.Update.Value.(*acpv1.SessionUpdateAgentMessageChunk); ok {
		if t, ok := c.Content.Value.(*acpv1.ContentBlockText); ok {
			r.mu.Lock()
			r.lines = append(r.lines, t.Text)
			r.mu.Unlock()
		}
	}
	return nil
}

func (r *recorder) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	for _, o := range p.Options {
		if o.Kind == acpv1.PermissionOptionKindAllowOnce {
			return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeSelected(o.OptionID)), nil
		}
	}
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
}

// oneTurn opens a session on conn and runs one turn with prompt, if not
// empty, returning its stop reason.
func oneTurn(t *testing.T, conn *acpv1.ClientSideConnection, prompt string) acpv1.StopReason {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest(t.TempDir(), []acpv1.MCPServer{}))
	if err != nil || s.SessionID == "" {
		t.Fatalf("session/new: %+v, %v", s, err)
	}
	if prompt == "" {
		return ""
	}
	r, err := conn.Prompt(ctx, acpv1.NewPromptRequest(s.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText(prompt)}))
	if err != nil {
		t.Fatalf("session/prompt: %v", err)
	}
	return r.StopReason
}

// startBoth starts cmd, negotiates, and returns the v1 connection of c
// whatever version the agent speaks.
func startBoth(t *testing.T, cmd *exec.Cmd, c acpv1.Client) (*acpv1.ClientSideConnection, int) {
	t.Helper()
	over := NewOverV2(c, convert.BridgeOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	a, err := acplaunch.Start(ctx, cmd, convert.Offer{
		V2: acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "both", Version: "1"}), V2Client: over.V2Client(),
		V1: acpv1.NewInitializeRequest(1), V1Client: c,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if a.Version == 1 {
		return a.V1, 1
	}
	conn := over.Connect(a.V2, a.V2Result)
	res, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1))
	if err != nil || res.ProtocolVersion != 1 {
		t.Fatalf("the v1 initialize over the bridge: %+v, %v", res, err)
	}
	return conn, 2
}

// TestOneClientBothVersions: one client, written against v1, runs the same
// turn with the example agent in v1 and in v2 (negotiated), and opens
// sessions with the TypeScript SDK's agent of both versions.
func TestOneClientBothVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example agent")
	}
	agent := filepath.Join(t.TempDir(), "agent")
	if b, err := exec.Command("go", "build", "-o", agent, "../examples/agent").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	var got [][]string
	for _, v2 := range []bool{false, true} {
		c := &recorder{}
		var conn *acpv1.ClientSideConnection
		if v2 {
			var version int
			if conn, version = startBoth(t, exec.Command(agent), c); version != 2 {
				t.Fatalf("negotiated v%d with the example agent, want v2", version)
			}
		} else {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			a, err := acplaunch.StartV1(ctx, exec.Command(agent), c, acpv1.NewInitializeRequest(1), nil)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { a.Close() })
			conn = a.ClientSideConnection
		}
		if stop := oneTurn(t, conn, "hello, both"); stop != acpv1.StopReasonEndTurn {
			t.Errorf("v2 %v: stop %q", v2, stop)
		}
		c.mu.Lock()
		got = append(got, slices.Clone(c.lines))
		c.mu.Unlock()
	}
	if !slices.Contains(got[0], "hello, both") || !slices.Equal(got[0], got[1]) {
		t.Errorf("the same client saw %q from the v1 agent and %q from the v2 one", got[0], got[1])
	}
	if !slices.ContainsFunc(got[1], func(s string) bool { return strings.HasPrefix(s, "permission: allow") }) {
		t.Errorf("the v2 agent's permission request did not reach the client: %q", got[1])
	}

	nodeBin := node.Require(t)
	script := filepath.Join(node.Dir(), "agent_router.mjs")
	for _, offerV2 := range []bool{false, true} {
		cmd := exec.Command(nodeBin, script)
		cmd.Env = append(os.Environ(), "NODE_NO_WARNINGS=1")
		var conn *acpv1.ClientSideConnection
		if offerV2 {
			var version int
			if conn, version = startBoth(t, cmd, &recorder{}); version != 2 {
				t.Fatalf("negotiated v%d with the TypeScript router agent, want v2", version)
			}
		} else {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			a, err := acplaunch.StartV1(ctx, cmd, &recorder{}, acpv1.NewInitializeRequest(1), nil)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { a.Close() })
			conn = a.ClientSideConnection
		}
		oneTurn(t, conn, "")
	}
}
