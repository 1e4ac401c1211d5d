package acpv1test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// lineWire is the peer's end of a connection: lines in, lines out.
type lineWire struct {
	t   *testing.T
	w   *io.PipeWriter
	out *bufio.Scanner
}

func newLineWire(t *testing.T) (w *lineWire, connW io.Writer, connR io.Reader) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	t.Cleanup(func() {
		inW.Close()
		go func() { _, _ = io.Copy(io.Discard, outR) }()
	})
	return &lineWire{t: t, w: inW, out: bufio.NewScanner(outR)}, outW, inR
}

func (l *lineWire) send(line string) {
	l.t.Helper()
	if _, err := io.WriteString(l.w, line+"\n"); err != nil {
		l.t.Fatal(err)
	}
}

func (l *lineWire) expect(want string) {
	l.t.Helper()
	got := make(chan string, 1)
	go func() {
		if l.out.Scan() {
			got <- l.out.Text()
		}
		close(got)
	}()
	select {
	case line := <-got:
		if line != want {
			l.t.Fatalf("the connection wrote\n%s\nwant\n%s", line, want)
		}
	case <-time.After(10 * time.Second):
		l.t.Fatalf("the connection wrote nothing; want %s", want)
	}
}

// forwardingAgent's Initialize asks its peer first, as a proxy written as
// an agent asks its successor, and builds its answer from the peer's.
type forwardingAgent struct {
	acpv1.Agent
	conn *acpv1.AgentSideConnection
}

func (a *forwardingAgent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	raw, err := a.conn.ExtMethod(ctx, "_successor/initialize", p)
	if err != nil {
		return nil, err
	}
	r := new(acpv1.InitializeResponse)
	return r, json.Unmarshal(raw, r)
}

// TestInitializeMayWaitForACall: an Initialize handler that waits for the
// answer to a call of its own gets it, and the connection is initialized
// afterwards.
func TestInitializeMayWaitForACall(t *testing.T) {
	l, w, r := newLineWire(t)
	conn := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
		return &forwardingAgent{conn: c}
	}, w, r)
	defer conn.Close()
	l.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	l.expect(`{"jsonrpc":"2.0","id":1,"method":"_successor/initialize","params":{"protocolVersion":1}}`)
	l.send(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{}}}`)
	l.expect(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{}}}`)
	l.send(`{"jsonrpc":"2.0","id":2,"method":"_x/after"}`)
	// Admitted after initialize: no handler, so "method not found".
	l.expect(`{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found","data":{"method":"_x/after"}}}`)
}

// TestProxyInitializeReachesMiddleware: proxy/initialize is not refused
// before the connection is initialized; a middleware answers it, and that
// initializes the connection. RawParams gives the params as received,
// those that do not fit their type included.
func TestProxyInitializeReachesMiddleware(t *testing.T) {
	l, w, r := newLineWire(t)
	var raws []string
	mw := func(next acpv1.Handler) acpv1.Handler {
		return func(ctx context.Context, call acpv1.Call) (any, error) {
			if call.Inbound() {
				raws = append(raws, string(acpv1.RawParams(call)))
			}
			if call.Method() == "proxy/initialize" {
				return json.RawMessage(`{"protocolVersion":1}`), nil
			}
			return next(ctx, call)
		}
	}
	conn := acpv1.NewAgentSideConnection(&callbackAgent{}, w, r, acpv1.WithMiddleware(mw))
	defer conn.Close()
	l.send(`{"jsonrpc":"2.0","id":1,"method":"proxy/initialize","params":{"protocolVersion":1,"n":1.50}}`)
	l.expect(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}`)
	l.send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":7,"x":"<&>"}}`)
	l.expect(`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params","data":{"details":"json: cannot unmarshal number into Go struct field .cwd of type string","path":"cwd"}}}`)
	want := []string{`{"protocolVersion":1,"n":1.50}`, `{"cwd":7,"x":"<&>"}`}
	if strings.Join(raws, "\n") != strings.Join(want, "\n") {
		t.Errorf("RawParams gave %q, want %q", raws, want)
	}
}

// updateCaller calls its peer from a session/update handler, with the
// handler's context.
type updateCaller struct {
	acpv1.Client
	conn *acpv1.ClientSideConnection
	err  chan error
}

func (c *updateCaller) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	_, err := c.conn.ExtMethod(ctx, "_x/ask", nil)
	c.err <- err
	return nil
}

// TestNotificationHandlerMustNotWait: a call made with a notification
// handler's context, whose answer the connection could only read after the
// handler returns, fails at once with an error that says so.
func TestNotificationHandlerMustNotWait(t *testing.T) {
	l, w, r := newLineWire(t)
	c := &updateCaller{err: make(chan error, 1)}
	acpv1.NewClientSideConnectionFunc(func(conn *acpv1.ClientSideConnection) acpv1.Client {
		c.conn = conn
		return c
	}, w, r)
	defer c.conn.Close()
	// The request the handler makes is read, so that Close does not wait
	// for its write to stall.
	go func() {
		for l.out.Scan() {
		}
	}()
	l.send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`)
	select {
	case err := <-c.err:
		if err == nil || !strings.Contains(err.Error(), "must not wait") {
			t.Fatalf("the call returned %v", err)
		}
		if errors.Is(err, acpv1.ErrConnectionClosed) {
			t.Fatalf("the call failed as if the connection had ended: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call from the notification handler hung")
	}
}
