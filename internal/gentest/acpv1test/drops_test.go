package acpv1test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// quietClient takes every session update and refuses nothing.
type quietClient struct{ updates int }

func (c *quietClient) RequestPermission(context.Context, *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
}

func (c *quietClient) SessionUpdate(context.Context, *acpv1.SessionNotification) error {
	c.updates++
	return nil
}

// dropLines are lines an agent writes that a client connection hands to
// no handler and no call, with the method and a word of the reason each
// drop must carry; the good update among them is not one.
var dropLines = []struct{ line, method, reason string }{
	{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c"}}}`, "session/update", "title"},
	{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":42}}}}`, "session/update", "text"},
	{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"content":{"type":"text","text":"x"}}}}`, "session/update", "sessionUpdate"},
	{`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`, "session/update", "sessionId"},
	{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"fine"}}}}`, "", ""},
	{`{"jsonrpc":"2.0","method":"no/such","params":{}}`, "no/such", "no handler"},
	{`{"jsonrpc":"2.0","id":7,"result":{}}`, "", "no call waiting"},
	{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, "", "Parse error"},
	{`{"jsonrpc":"2.0","id":3,"method":"session/request_permission","params":{"sessionId":"s"}}`, "session/request_permission", "Invalid params"},
	{`not json`, "", "Parse error"},
	{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","pad":"` + strings.Repeat("x", 600) + `"}}`, "session/update", "longer than the limit of 512"},
}

// TestDropsReported: each inbound message the client connection drops
// reaches the drop handler, in order, with its method and reason, and the
// good update among them reaches the client.
func TestDropsReported(t *testing.T) {
	var in strings.Builder
	var want []int
	for i, l := range dropLines {
		in.WriteString(l.line + "\n")
		if l.reason != "" {
			want = append(want, i)
		}
	}
	var mu sync.Mutex
	var drops []acpv1.Drop
	client := &quietClient{}
	conn := acpv1.NewClientSideConnection(client, io.Discard, strings.NewReader(in.String()),
		acpv1.WithLimits(acpv1.Limits{MaxMessageBytes: 512}),
		acpv1.WithDropHandler(func(d acpv1.Drop) {
			mu.Lock()
			drops = append(drops, d)
			mu.Unlock()
		}))
	<-conn.Done()
	conn.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(drops) != len(want) {
		t.Fatalf("%d drops, want %d: %+v", len(drops), len(want), drops)
	}
	for i, w := range want {
		l, d := dropLines[w], drops[i]
		if d.Method != l.method || !strings.Contains(d.Reason, l.reason) {
			t.Errorf("drop %d: %+v, want method %q and a reason naming %q", i, d, l.method, l.reason)
		}
	}
	if last := drops[len(drops)-1]; last.Answer == nil {
		t.Errorf("the line too long was answered, but its drop has no Answer: %+v", last)
	}
	if client.updates != 1 {
		t.Errorf("the client got %d updates, want the good one", client.updates)
	}
}

// TestDropsLogged: without a drop handler, each drop is logged to the
// connection's logger with its method and reason, also through a
// middleware (which a notification without handler passes).
func TestDropsLogged(t *testing.T) {
	var log bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(lockedWriter{&mu, &log}, nil))
	in := dropLines[0].line + "\n" + dropLines[5].line + "\n"
	pass := func(next acpv1.Handler) acpv1.Handler { return next }
	conn := acpv1.NewClientSideConnection(&quietClient{}, io.Discard, strings.NewReader(in),
		acpv1.WithLogger(logger), acpv1.WithMiddleware(pass))
	<-conn.Done()
	conn.Close()
	mu.Lock()
	defer mu.Unlock()
	var lines []string
	for s := bufio.NewScanner(&log); s.Scan(); {
		lines = append(lines, s.Text())
	}
	if len(lines) != 2 {
		t.Fatalf("%d lines logged, want 2:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	for i, want := range []string{"method=session/update", "method=no/such"} {
		if !strings.Contains(lines[i], "dropped") || !strings.Contains(lines[i], want) || !strings.Contains(lines[i], "reason=") {
			t.Errorf("line %d: %s, want a drop with %s and a reason", i, lines[i], want)
		}
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// TestDropLateResponse: the answer to a call cancelled before it came is
// a drop, with its id.
func TestDropLateResponse(t *testing.T) {
	agentIn, clientOut := io.Pipe()
	clientIn, agentOut := io.Pipe()
	drops := make(chan acpv1.Drop, 4)
	conn := acpv1.NewClientSideConnection(&quietClient{}, clientOut, clientIn,
		acpv1.WithDropHandler(func(d acpv1.Drop) { drops <- d }))
	defer conn.Close()
	defer agentOut.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		r := bufio.NewReader(agentIn)
		line, _ := r.ReadString('\n') // the request
		cancel()
		_, _ = r.ReadString('\n') // its $/cancel_request
		_ = line
		_, _ = io.WriteString(agentOut, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}`+"\n")
		_, _ = io.Copy(io.Discard, r)
	}()
	if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err == nil {
		t.Fatal("the cancelled call succeeded")
	}
	select {
	case d := <-drops:
		if d.ID != "1" || !strings.Contains(d.Reason, "no call waiting") {
			t.Errorf("drop %+v, want id 1 and no call waiting", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the late response was not reported")
	}
}
