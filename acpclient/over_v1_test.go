//go:build unix

package acpclient

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acplaunch"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/node"
)

// recorderV2 is a client written once, against v2: it records the kinds
// of the agent's updates and the text of its messages, and allows what
// the agent asks.
type recorderV2 struct {
	acpv2.SessionRouter
	mu    sync.Mutex
	lines []string
	kinds []string
	asked chan struct{} // if not nil, permission requests are told here and wait for their context to end
}

func (r *recorderV2) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	r.mu.Lock()
	if !slices.Contains(r.kinds, n.Update.Tag()) {
		r.kinds = append(r.kinds, n.Update.Tag())
	}
	var blocks []acpv2.ContentBlock
	switch v := n.Update.Value.(type) {
	case *acpv2.SessionUpdateAgentMessageChunk:
		blocks = []acpv2.ContentBlock{v.Content}
	case *acpv2.SessionUpdateAgentMessage:
		blocks = v.Content.Value
	}
	for _, b := range blocks {
		if t, ok := b.Value.(*acpv2.ContentBlockText); ok {
			r.lines = append(r.lines, t.Text)
		}
	}
	r.mu.Unlock()
	return r.SessionRouter.UpdateSession(ctx, n)
}

func (r *recorderV2) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	if r.asked != nil {
		r.asked <- struct{}{}
		<-ctx.Done()
	}
	for _, o := range p.Options {
		if o.Kind == acpv2.PermissionOptionKindAllowOnce {
			return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeSelected(o.OptionID)), nil
		}
	}
	return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeCancelled()), nil
}

// turnV2 opens a session with c's router on conn, initialized, runs one
// turn and returns its stop reason, read from the idle state update.
func turnV2(t *testing.T, c *recorderV2, conn *acpv2.ClientSideConnection, prompt string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, _, err := c.NewSession(ctx, conn, acpv2.NewNewSessionRequest(acpv2.AbsolutePath(t.TempDir())))
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	if _, err := s.Prompt(ctx, []acpv2.ContentBlock{acpv2.NewContentBlockText(prompt)}); err != nil {
		t.Fatalf("session/prompt: %v", err)
	}
	for {
		e, err := s.Next(ctx)
		if err != nil {
			t.Fatalf("the turn did not end: %v", err)
		}
		if u, ok := e.Notification.Update.Value.(*acpv2.SessionUpdateStateUpdate); ok {
			if idle, ok := u.StateUpdate.Value.(*acpv2.StateUpdateIdle); ok {
				return idle.StopReason()
			}
		}
	}
}

// startV2Client starts cmd and returns c's connection to it, initialized:
// a v2 one, or, when v1, the v1 one through OverV1.
func startV2Client(t *testing.T, cmd *exec.Cmd, c acpv2.Client, v1 bool) *acpv2.ClientSideConnection {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	init := acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "once", Version: "1"})
	if !v1 {
		a, err := acplaunch.StartV2(ctx, cmd, c, init, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		return a.ClientSideConnection
	}
	over := NewOverV1(c)
	over.Undeliverable = func(n *acpv1.SessionNotification, err error) { t.Errorf("undeliverable %s: %v", n.Update.Tag(), err) }
	a, err := acplaunch.StartV1(ctx, cmd, over.V1Client(), acpv1.NewInitializeRequest(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	conn := over.Connect(a.ClientSideConnection, a.Result)
	res, err := conn.Initialize(ctx, init)
	if err != nil || res.ProtocolVersion != 2 || res.Capabilities == nil || res.Capabilities.Session == nil {
		t.Fatalf("the v2 initialize over the adapter: %+v, %v", res, err)
	}
	return conn
}

// TestOneV2ClientBothVersions: one client, written against v2, runs the
// same turn with the example agent in v2 and, through OverV1, in v1: the
// same text, the same kinds of update (and the plan), the same stop
// reason; and it opens sessions with the TypeScript SDK's agent of both
// versions.
func TestOneV2ClientBothVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example agent")
	}
	agent := filepath.Join(t.TempDir(), "agent")
	if b, err := exec.Command("go", "build", "-o", agent, "../examples/agent").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	var lines, kinds [][]string
	for _, v1 := range []bool{false, true} {
		c := &recorderV2{}
		conn := startV2Client(t, exec.Command(agent), c, v1)
		if stop := turnV2(t, c, conn, "/plan A; B"); stop != "end_turn" {
			t.Errorf("v1 %v: stop %q", v1, stop)
		}
		c.mu.Lock()
		lines, kinds = append(lines, slices.Clone(c.lines)), append(kinds, slices.Clone(c.kinds))
		c.mu.Unlock()
	}
	if !slices.Contains(lines[1], "permission: allow") || !slices.Equal(lines[0], lines[1]) {
		t.Errorf("the same client saw %q from the v2 agent and %q from the v1 one", lines[0], lines[1])
	}
	for _, k := range append(kinds[0], "plan_update") {
		if !slices.Contains(kinds[1], k) {
			t.Errorf("no %s from the v1 agent: %q", k, kinds[1])
		}
	}

	nodeBin := node.Require(t)
	script := filepath.Join(node.Dir(), "agent_router.mjs")
	for _, v1 := range []bool{false, true} {
		cmd := exec.Command(nodeBin, script)
		cmd.Env = append(os.Environ(), "NODE_NO_WARNINGS=1")
		c := &recorderV2{}
		conn := startV2Client(t, cmd, c, v1)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		s, _, err := c.NewSession(ctx, conn, acpv2.NewNewSessionRequest(acpv2.AbsolutePath(t.TempDir())))
		cancel()
		if err != nil || s.ID() == "" {
			t.Fatalf("v1 %v: session/new with the TypeScript agent: %v", v1, err)
		}
	}
}

// TestV2CancelBothVersions: a client written once against v2 cancels a
// turn that waits on its permission request, with the example agent in
// v2 and in v1 (through OverV1): Cancel answers the request cancelled and
// returns the stop reason cancelled.
func TestV2CancelBothVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example agent")
	}
	agent := filepath.Join(t.TempDir(), "agent")
	if b, err := exec.Command("go", "build", "-o", agent, "../examples/agent").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	for _, v1 := range []bool{false, true} {
		c := &recorderV2{asked: make(chan struct{}, 1)}
		conn := startV2Client(t, exec.Command(agent), c, v1)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		s, _, err := c.NewSession(ctx, conn, acpv2.NewNewSessionRequest(acpv2.AbsolutePath(t.TempDir())))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Prompt(ctx, []acpv2.ContentBlock{acpv2.NewContentBlockText("cancel me")}); err != nil {
			t.Fatal(err)
		}
		<-c.asked
		stop, err := s.Cancel(ctx)
		cancel()
		if err != nil || stop != "cancelled" {
			t.Errorf("v1 %v: Cancel: %q, %v; want the stop reason cancelled", v1, stop, err)
		}
		c.mu.Lock()
		if !slices.Contains(c.lines, "permission: cancelled") {
			t.Errorf("v1 %v: the agent said %q, not that its permission request was cancelled", v1, c.lines)
		}
		c.mu.Unlock()
	}
}
