package acpv1test

import (
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// TestInitializeWaitsWhileThePeerCalls: an Initialize handler that waits
// for the answer to a call of its own gets it even when the peer sends
// requests and notifications before answering, as a proxy's successor may:
// those wait, in order, for initialize to be answered, and the reader reads
// the answer meanwhile.
func TestInitializeWaitsWhileThePeerCalls(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	l, w, r := newLineWire(t)
	notes := make(chan string, 2)
	conn := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
		return &notedAgent{&forwardingAgent{conn: c}, notes}
	}, w, r)
	defer conn.Close()
	l.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	l.expect(`{"jsonrpc":"2.0","id":1,"method":"_successor/initialize","params":{"protocolVersion":1}}`)
	sent := make(chan error, 1)
	go func() {
		// Written by a goroutine: a reader that blocks would block the test.
		var err error
		for _, line := range []string{
			`{"jsonrpc":"2.0","method":"_x/note","params":{"n":1}}`,
			`{"jsonrpc":"2.0","id":"a","method":"_x/early"}`,
			`{"jsonrpc":"2.0","method":"_x/note","params":{"n":2}}`,
			`{"jsonrpc":"2.0","id":"b","method":"_x/early"}`,
			`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{}}}`,
		} {
			if _, err = io.WriteString(l.w, line+"\n"); err != nil {
				break
			}
		}
		sent <- err
	}()
	select {
	case err := <-sent:
		if err != nil {
			t.Fatal(err)
		}
	case <-ctx.Done():
		t.Fatal("the connection stopped reading while initialize waited for its call: a deadlock")
	}
	l.expect(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{}}}`)
	// Handled after initialize was answered, in the order received.
	l.expectAny(
		`{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"Method not found","data":{"method":"_x/early"}}}`,
		`{"jsonrpc":"2.0","id":"b","error":{"code":-32601,"message":"Method not found","data":{"method":"_x/early"}}}`)
	if got := <-notes + " " + <-notes; got != `{"n":1} {"n":2}` {
		t.Errorf("the notifications were handled as %s", got)
	}
}

// notedAgent is a forwardingAgent that hands the params of extension
// notifications to notes.
type notedAgent struct {
	*forwardingAgent
	notes chan string
}

func (a *notedAgent) ExtNotification(ctx context.Context, method string, params json.RawMessage) error {
	a.notes <- string(params)
	return nil
}

// expectAny reads as many lines as it is given, in any order.
func (l *lineWire) expectAny(want ...string) {
	l.t.Helper()
	left := map[string]bool{}
	for _, w := range want {
		left[w] = true
	}
	for range want {
		got := make(chan string, 1)
		go func() {
			if l.out.Scan() {
				got <- l.out.Text()
			}
			close(got)
		}()
		select {
		case line := <-got:
			if !left[line] {
				l.t.Fatalf("the connection wrote\n%s\nwant one of %q", line, want)
			}
			delete(left, line)
		case <-time.After(10 * time.Second):
			l.t.Fatalf("the connection wrote nothing; want %q", want)
		}
	}
}
