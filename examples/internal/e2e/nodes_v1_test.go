package e2e

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// testNodesFailoverV1 is testNodesFailoverV2 for a v1 client: its node is
// killed while its second prompt waits on a permission request; the
// prompt fails, the transport takes the session back on the other node
// with session/load, which replays the history from Postgres, and the
// session takes a third prompt there.
func testNodesFailoverV1(t *testing.T, n *nodes) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := dialNodeVersion(t, ctx, n.lb.URL, true, 1)
	s, err := c.conn1.NewSession(ctx, acpv1.NewNewSessionRequest("/tmp", []acpv1.MCPServer{}))
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	id := string(s.SessionID)
	first := c.lastServed()
	node := n.lb.backends[first]
	if node == nil {
		t.Fatalf("session/new answered by %q, want node a or b", first)
	}
	if r, err := c.prompt1(ctx, s.SessionID, "one"); err != nil || r.StopReason != acpv1.StopReasonEndTurn {
		t.Fatalf("prompt one: %v %v", r, err)
	}
	live := c.take(ctx, 2) // the echo and the permission's answer
	c.hold.Store(true)
	prompted := make(chan error, 1)
	go func() {
		_, err := c.prompt1(ctx, s.SessionID, "two")
		prompted <- err
	}()
	select {
	case <-c.asked:
	case <-ctx.Done():
		t.Fatal("no permission request in the second turn")
	}
	live = append(live, c.take(ctx, 1)...)
	// Three updates of the first turn and two of the second (the user's
	// prompts are stored as user_message_chunk): committed, which a v1
	// turn does not wait for before its permission request.
	stored := n.waitHistory(t, id, make([]string, 5))
	if len(stored) != 5 {
		t.Fatalf("Postgres holds %d updates before the kill, want 5", len(stored))
	}
	killed := time.Now()
	if err := node.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-node.done
	if err := <-prompted; err == nil {
		t.Fatal("the prompt in flight on the killed node succeeded")
	} else {
		t.Logf("the prompt in flight on node %s: %v", first, err)
	}
	select {
	case r := <-c.rebuilt:
		if r.Failed || r.SessionID != id {
			t.Fatalf("the session taken back: %+v", r)
		}
		t.Logf("node %s killed; session loaded again in %v", first, time.Since(killed).Round(time.Millisecond))
	case <-ctx.Done():
		t.Fatal("the transport did not take the session back")
	}
	second := c.lastServed()
	if second == first || n.lb.backends[second] == nil {
		t.Fatalf("after node %s died the client was served by %q", first, second)
	}
	replayed := c.take(ctx, 5)
	if !slices.Equal(replayed, stored) {
		t.Fatalf("node %s replayed\n%s\nwant what Postgres holds\n%s", second, strings.Join(replayed, "\n"), strings.Join(stored, "\n"))
	}
	if agents := agentChunks(replayed); !slices.Equal(agents, live) {
		t.Fatalf("the replay's agent chunks\n%s\nwant what node %s sent\n%s", strings.Join(agents, "\n"), first, strings.Join(live, "\n"))
	}

	c.hold.Store(false)
	if r, err := c.prompt1(ctx, s.SessionID, "three"); err != nil || r.StopReason != acpv1.StopReasonEndTurn {
		t.Fatalf("prompt three on node %s: %v %v", second, r, err)
	}
	want := append(stored, `{"sessionId":"`+id+`","update":{"content":{"text":"three","type":"text"},"sessionUpdate":"user_message_chunk"}}`)
	want = append(want, c.take(ctx, 2)...)
	if got := n.waitHistory(t, id, want); !slices.Equal(got, want) {
		t.Fatalf("Postgres holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// agentChunks returns the updates of got but the user's.
func agentChunks(got []string) []string {
	var agents []string
	for _, u := range got {
		if !strings.Contains(u, `"sessionUpdate":"user_message_chunk"`) {
			agents = append(agents, u)
		}
	}
	return agents
}

// testNodesSplitBrainV1 is testNodesSplitBrainV2 for v1 clients: node a
// makes the session and runs a turn; node b loads it, which writes its
// record (the MCP servers and _meta of the load); node a, which does not
// know, runs another turn over the revision it read: its prompt is
// answered with the conflict's error, and Postgres holds the first turn
// alone, in order.
func testNodesSplitBrainV1(t *testing.T, n *nodes) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	x := dialNodeVersion(t, ctx, n.lb.backends["a"].URL, false, 1)
	y := dialNodeVersion(t, ctx, n.lb.backends["b"].URL, false, 1)
	s, err := x.conn1.NewSession(ctx, acpv1.NewNewSessionRequest("/tmp", []acpv1.MCPServer{}))
	if err != nil {
		t.Fatalf("session/new on node a: %v", err)
	}
	id := string(s.SessionID)
	if r, err := x.prompt1(ctx, s.SessionID, "one"); err != nil || r.StopReason != acpv1.StopReasonEndTurn {
		t.Fatalf("prompt one on node a: %v %v", r, err)
	}
	want := n.waitHistory(t, id, make([]string, 3))
	if _, err := y.conn1.LoadSession(ctx, acpv1.NewLoadSessionRequest(s.SessionID, "/tmp", []acpv1.MCPServer{})); err != nil {
		t.Fatalf("session/load on node b: %v", err)
	}
	if got := y.take(ctx, 3); !slices.Equal(got, want) {
		t.Fatalf("node b replayed %q, want %q", got, want)
	}

	r, err := x.prompt1(ctx, s.SessionID, "two")
	var rpcErr *acpv1.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32603 || !strings.Contains(string(rpcErr.Data), "changed by another") {
		t.Fatalf("prompt two on node a: %v %v, want -32603 for the conflict", r, err)
	}
	t.Logf("prompt two on node a: %v %s", err, rpcErr.Data)
	time.Sleep(200 * time.Millisecond) // node a's writes, had they been let through
	if got := n.history(t, id); !slices.Equal(got, want) {
		t.Fatalf("Postgres holds\n%s\nwant the first turn alone\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Node b, the winner, serves the session on.
	if r, err := y.prompt1(ctx, s.SessionID, "three"); err != nil || r.StopReason != acpv1.StopReasonEndTurn {
		t.Fatalf("prompt three on node b: %v %v", r, err)
	}
	stored := n.waitHistory(t, id, make([]string, 6))
	if len(stored) != 6 || !slices.Equal(stored[:3], want) {
		t.Fatalf("Postgres holds after node b's turn\n%s", strings.Join(stored, "\n"))
	}
	// Loaded again, node a reads the session afresh and serves it on.
	if _, err := x.conn1.LoadSession(ctx, acpv1.NewLoadSessionRequest(s.SessionID, "/tmp", []acpv1.MCPServer{})); err != nil {
		t.Fatalf("session/load on node a after the conflict: %v", err)
	}
	// Skipped: what node a sent live in its two turns, before the replay
	// (two chunks of each at most).
	var skipped []string
	for u := x.take(ctx, 1)[0]; u != stored[0]; u = x.take(ctx, 1)[0] {
		if skipped = append(skipped, u); len(skipped) > 4 {
			t.Fatalf("node a's replay after the conflict does not start with %s:\n%s", stored[0], strings.Join(skipped, "\n"))
		}
	}
	if got := append(stored[:1:1], x.take(ctx, 5)...); !slices.Equal(got, stored) {
		t.Fatalf("node a replayed after the conflict\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(stored, "\n"))
	}
	if r, err := x.prompt1(ctx, s.SessionID, "four"); err != nil || r.StopReason != acpv1.StopReasonEndTurn {
		t.Fatalf("prompt four on node a after it loaded the session again: %v %v", r, err)
	}
}
