package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// testNodesFailoverV2 runs two agents on one Postgres behind HAProxy: a
// v2 client with a reconnecting transport makes a session on the node the
// balancer picks, runs a turn, starts another, and that node is killed
// (kill -9) while the turn waits on its permission request. The transport
// reconnects, the balancer sends it to the other node, which does not know
// the connection: the transport takes the session back with session/resume
// and replayFrom start, and the other node replays the whole history from
// Postgres, then says the turn was interrupted; the session takes prompts
// there, and Postgres holds its history in order, each update once.
func testNodesFailoverV2(t *testing.T, n *nodes) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := dialNode(t, ctx, n.lb.URL, true)
	s, err := c.conn.NewSession(ctx, acpv2.NewNewSessionRequest("/tmp"))
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	first := c.lastServed()
	node := n.lb.backends[first]
	if node == nil {
		t.Fatalf("session/new answered by %q, want node a or b", first)
	}
	if err := c.prompt(ctx, s.SessionID, "one"); err != nil {
		t.Fatalf("prompt one: %v", err)
	}
	sent := c.untilIdle(ctx)
	c.hold.Store(true)
	if err := c.prompt(ctx, s.SessionID, "two"); err != nil {
		t.Fatalf("prompt two: %v", err)
	}
	select {
	case <-c.asked:
	case <-ctx.Done():
		t.Fatal("no permission request in the second turn")
	}
	// The turn's updates up to requires_action, which is stored (with all
	// before it) before it is sent.
	for !strings.Contains(sent[len(sent)-1], `"state":"requires_action"`) {
		select {
		case u := <-c.updates:
			sent = append(sent, u)
		case <-ctx.Done():
			t.Fatalf("no requires_action; got %q", sent)
		}
	}
	if served := c.servedAll(); slices.ContainsFunc(served, func(s string) bool { return s != first }) {
		t.Fatalf("before the kill the client was served by %v, want node %s alone", served, first)
	}
	killed := time.Now()
	if err := node.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-node.done

	select {
	case r := <-c.rebuilt:
		if r.Failed || r.SessionID != string(s.SessionID) {
			t.Fatalf("the session taken back: %+v", r)
		}
		t.Logf("node %s killed; session taken back in %v (%v)", first, time.Since(killed).Round(time.Millisecond), r.Err)
	case <-ctx.Done():
		t.Fatal("the transport did not take the session back")
	}
	replayed := c.untilIdle(ctx)
	second := c.lastServed()
	if second == first || n.lb.backends[second] == nil {
		t.Fatalf("after node %s died the client was served by %q", first, second)
	}
	interrupted := replayed[len(replayed)-1]
	if !strings.Contains(interrupted, `"stopReason":"error"`) || !strings.Contains(interrupted, "the turn was interrupted") {
		t.Errorf("the resume on node %s ends with %s, want the interrupted turn", second, interrupted)
	}
	if want, got := history(sent), history(replayed); !slices.Equal(got, want) {
		t.Fatalf("node %s replayed\n%s\nwant what node %s sent\n%s", second, strings.Join(got, "\n"), first, strings.Join(want, "\n"))
	}
	if got := n.history(t, string(s.SessionID)); !slices.Equal(got, history(sent)) {
		t.Fatalf("Postgres holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(history(sent), "\n"))
	}

	c.hold.Store(false)
	if err := c.prompt(ctx, s.SessionID, "three"); err != nil {
		t.Fatalf("prompt three on node %s: %v", second, err)
	}
	third := c.untilIdle(ctx)
	if last := third[len(third)-1]; !strings.Contains(last, `"stopReason":"end_turn"`) {
		t.Errorf("the turn on node %s ended with %s", second, last)
	}
	want := append(history(sent), history(third)...)
	if got := n.waitHistory(t, string(s.SessionID), want); !slices.Equal(got, want) {
		t.Fatalf("Postgres holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if c.lastServed() != second {
		t.Errorf("the third turn was served by %s, want %s", c.lastServed(), second)
	}
}

// testNodesSplitBrainV2 has two nodes serve one session at once, as after
// a partition: a client of node a makes it and runs a turn, a client of
// node b resumes it there, node a runs another turn, and then node b's
// turn writes over a revision that is no longer the store's. Node b's
// write fails with the store's conflict, its client is told so by the
// turn's idle state_update (stop reason error), and Postgres holds node
// a's history alone, in order.
func testNodesSplitBrainV2(t *testing.T, n *nodes) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	x := dialNode(t, ctx, n.lb.backends["a"].URL, false)
	y := dialNode(t, ctx, n.lb.backends["b"].URL, false)
	s, err := x.conn.NewSession(ctx, acpv2.NewNewSessionRequest("/tmp"))
	if err != nil {
		t.Fatalf("session/new on node a: %v", err)
	}
	if err := x.prompt(ctx, s.SessionID, "one"); err != nil {
		t.Fatalf("prompt one on node a: %v", err)
	}
	sent := x.untilIdle(ctx)
	// The turn's last chunk is committed with its idle update, which is
	// sent first.
	n.waitHistory(t, string(s.SessionID), history(sent))
	r := acpv2.NewResumeSessionRequest(s.SessionID, "/tmp")
	r.ReplayFrom = acpv2.Ptr(acpv2.NewReplayFromStartVariant())
	if _, err := y.conn.ResumeSession(ctx, r); err != nil {
		t.Fatalf("session/resume on node b: %v", err)
	}
	if got := history(y.untilIdle(ctx)); !slices.Equal(got, history(sent)) {
		t.Fatalf("node b replayed %q, want %q", got, history(sent))
	}
	if err := x.prompt(ctx, s.SessionID, "two"); err != nil {
		t.Fatalf("prompt two on node a: %v", err)
	}
	sent = append(sent, x.untilIdle(ctx)...)
	want := history(sent)
	n.waitHistory(t, string(s.SessionID), want)

	if err := y.prompt(ctx, s.SessionID, "three"); err != nil {
		t.Fatalf("prompt three on node b: %v", err)
	}
	lost := y.untilIdle(ctx)
	t.Logf("node b's turn: %q", lost)
	idle := lost[len(lost)-1]
	if !strings.Contains(idle, `"stopReason":"error"`) || !strings.Contains(idle, "changed by another") {
		t.Errorf("node b's turn ended with %s, want stop reason error for the conflict", idle)
	}
	time.Sleep(200 * time.Millisecond) // node b's writes, had they been let through
	if got := n.history(t, string(s.SessionID)); !slices.Equal(got, want) {
		t.Fatalf("Postgres holds\n%s\nwant node a's history alone\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Resumed again, node b reads the session afresh: node a's history,
	// and a turn of its own after it.
	if _, err := y.conn.ResumeSession(ctx, r); err != nil {
		t.Fatalf("session/resume on node b after the conflict: %v", err)
	}
	if got := history(y.untilIdle(ctx)); !slices.Equal(got, want) {
		t.Fatalf("node b replayed after the conflict\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if err := y.prompt(ctx, s.SessionID, "four"); err != nil {
		t.Fatalf("prompt four on node b: %v", err)
	}
	four := y.untilIdle(ctx)
	if last := four[len(four)-1]; !strings.Contains(last, `"stopReason":"end_turn"`) {
		t.Fatalf("node b's turn after it resumed the session again ended with %s", last)
	}
	want = append(want, history(four)...)
	if got := n.waitHistory(t, string(s.SessionID), want); !slices.Equal(got, want) {
		t.Fatalf("Postgres holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
