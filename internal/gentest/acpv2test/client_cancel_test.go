package acpv2test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv2"

	"io"
)

// countingClient counts the permission and elicitation requests its
// handlers serve, and answers them at once.
type countingClient struct {
	acpv2.SessionRouter
	served chan string
}

func (c *countingClient) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	c.served <- acpv2.MethodRequestPermission
	return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeSelected("ok")), nil
}

func (c *countingClient) CreateElicitation(ctx context.Context, p *acpv2.CreateElicitationRequest) (*acpv2.CreateElicitationResponse, error) {
	c.served <- acpv2.MethodCreateElicitation
	r := acpv2.NewCreateElicitationResponseDecline()
	return &r, nil
}

const elicitLine = `{"jsonrpc":"2.0","id":%d,"method":"elicitation/create","params":{"sessionId":"sess_1","mode":"form","message":"name?","requestedSchema":{"type":"object","properties":{}}}}`

// TestClientCancelLateRequests: after acpv2.ActiveSession.Cancel, a permission
// or elicitation request of the session that arrives 0, 1 or 50 ms later,
// before the turn's idle, is answered cancelled at once without its
// handler being called; once idle is routed, requests reach the handlers
// again.
func TestClientCancelLateRequests(t *testing.T) {
	for _, delay := range []time.Duration{0, time.Millisecond, 50 * time.Millisecond} {
		t.Run(fmt.Sprint(delay), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			client := &countingClient{served: make(chan string, 4)}
			var conn *acpv2.ClientSideConnection
			p := newWirePeer(t, func(w io.Writer, r io.Reader) interface{ Done() <-chan struct{} } {
				conn = acpv2.NewClientSideConnection(client, w, r)
				return conn
			})
			started := make(chan *acpv2.ActiveSession, 1)
			go func() {
				s, _, err := client.NewSession(ctx, conn, acpv2.NewNewSessionRequest("/w"))
				if err != nil {
					t.Error(err)
				}
				started <- s
			}()
			p.expect(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`)
			p.send(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_1"}}`)
			s := <-started
			p.send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"state_update","state":"running"}}}`)
			waitEvent(ctx, t, s)
			cancelled := make(chan string, 1)
			go func() {
				stop, err := s.Cancel(ctx)
				cancelled <- fmt.Sprint(stop, " ", err)
			}()
			p.expect(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess_1"}}`)
			time.Sleep(delay)
			p.send(askLine)
			p.send(fmt.Sprintf(elicitLine, 2))
			p.send(strings.Replace(askLine, `"sess_1"`, `"sess_2"`, 1)) // another session's: served
			p.expect(`{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"cancelled"}}}`,
				`{"jsonrpc":"2.0","id":2,"result":{"action":"cancel"}}`)
			if m := <-client.served; m != acpv2.MethodRequestPermission {
				t.Fatalf("served %s", m)
			}
			p.expect(`{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"selected","optionId":"ok"}}}`)

			p.send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"state_update","state":"idle","stopReason":"cancelled"}}}`)
			waitEvent(ctx, t, s)
			if got := <-cancelled; got != "cancelled <nil>" {
				t.Fatalf("Cancel: %s, want the stop reason cancelled", got)
			}
			p.send(strings.Replace(askLine, `"id":1`, `"id":3`, 1))
			p.send(fmt.Sprintf(elicitLine, 4))
			got := map[string]bool{p.recv(): true, p.recv(): true} // served concurrently: in any order
			if !got[`{"jsonrpc":"2.0","id":3,"result":{"outcome":{"outcome":"selected","optionId":"ok"}}}`] ||
				!got[`{"jsonrpc":"2.0","id":4,"result":{"action":"decline"}}`] {
				t.Fatalf("after idle: %v", got)
			}
			if a, b := <-client.served, <-client.served; a == b {
				t.Fatalf("served %s, %s", a, b)
			}
		})
	}
}

// TestClientCancelIdle: a Cancel while the session is idle answers no
// later request: the next turn's requests are its own.
func TestClientCancelIdle(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := &countingClient{served: make(chan string, 4)}
	var conn *acpv2.ClientSideConnection
	p := newWirePeer(t, func(w io.Writer, r io.Reader) interface{ Done() <-chan struct{} } {
		conn = acpv2.NewClientSideConnection(client, w, r)
		return conn
	})
	started := make(chan *acpv2.ActiveSession, 1)
	go func() {
		s, _, err := client.NewSession(ctx, conn, acpv2.NewNewSessionRequest("/w"))
		if err != nil {
			t.Error(err)
		}
		started <- s
	}()
	p.expect(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`)
	p.send(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_1"}}`)
	s := <-started
	p.send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}}}`)
	waitEvent(ctx, t, s)
	if stop, err := s.Cancel(ctx); err != nil || stop != "" {
		t.Fatalf("Cancel of an idle session: %q, %v; want \"\", nil", stop, err)
	}
	p.expect(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess_1"}}`)
	p.send(askLine)
	p.expect(`{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"selected","optionId":"ok"}}}`)
	<-client.served
}

func waitEvent(ctx context.Context, t *testing.T, s *acpv2.ActiveSession) acpv2.SessionEvent {
	t.Helper()
	e, err := s.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
