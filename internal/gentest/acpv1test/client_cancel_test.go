package acpv1test

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// countingClient answers permission and elicitation requests at once and
// says which its handlers served.
type countingClient struct {
	acpv1.SessionRouter
	served chan string
}

func (c *countingClient) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	c.served <- acpv1.MethodRequestPermission
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeSelected("ok")), nil
}

func (c *countingClient) CreateElicitation(ctx context.Context, p *acpv1.CreateElicitationRequest) (*acpv1.CreateElicitationResponse, error) {
	c.served <- acpv1.MethodCreateElicitation
	r := acpv1.NewCreateElicitationResponseDecline()
	return &r, nil
}

const (
	lateAsk    = `{"jsonrpc":"2.0","id":%d,"method":"session/request_permission","params":{"sessionId":"sess_1","toolCall":{"toolCallId":"call_1"},"options":[{"optionId":"ok","name":"OK","kind":"allow_once"}]}}`
	lateElicit = `{"jsonrpc":"2.0","id":%d,"method":"elicitation/create","params":{"sessionId":"sess_1","mode":"form","message":"name?","requestedSchema":{"type":"object","properties":{}}}}`
)

// TestClientCancelLateRequests: after acpv1.ActiveSession.Cancel, a permission
// or elicitation request of the session that arrives 0, 1 or 50 ms later,
// before the prompt's answer, is answered cancelled at once without its
// handler being called; once the prompt is answered, requests reach the
// handlers again.
func TestClientCancelLateRequests(t *testing.T) {
	for _, delay := range []time.Duration{0, time.Millisecond, 50 * time.Millisecond} {
		t.Run(fmt.Sprint(delay), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			client := &countingClient{served: make(chan string, 4)}
			var conn *acpv1.ClientSideConnection
			p := newWirePeer(t, func(w io.Writer, r io.Reader) interface{ Done() <-chan struct{} } {
				conn = acpv1.NewClientSideConnection(client, w, r)
				return conn
			})
			started := make(chan *acpv1.ActiveSession, 1)
			go func() {
				s, _, err := client.NewSession(ctx, conn, acpv1.NewNewSessionRequest("/w", []acpv1.MCPServer{}))
				if err != nil {
					t.Error(err)
				}
				started <- s
			}()
			p.expect(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`)
			p.send(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_1"}}`)
			s := <-started
			prompted := make(chan error, 1)
			go func() {
				_, err := s.Prompt(ctx, []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")})
				prompted <- err
			}()
			p.expect(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"hi"}]}}`)
			cancelled := make(chan string, 1)
			go func() {
				stop, err := s.Cancel(ctx)
				cancelled <- fmt.Sprint(stop, " ", err)
			}()
			p.expect(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess_1"}}`)
			time.Sleep(delay)
			p.send(fmt.Sprintf(lateAsk, 1))
			p.send(fmt.Sprintf(lateElicit, 2))
			got := map[string]bool{p.recv(): true, p.recv(): true} // answered concurrently: in any order
			if !got[`{"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"cancelled"}}}`] ||
				!got[`{"jsonrpc":"2.0","id":2,"result":{"action":"cancel"}}`] {
				t.Fatalf("after the cancel: %v", got)
			}
			p.send(`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"cancelled"}}`)
			if err := <-prompted; err != nil {
				t.Fatal(err)
			}
			if got := <-cancelled; got != "cancelled <nil>" {
				t.Fatalf("Cancel: %s, want the stop reason cancelled", got)
			}
			select {
			case m := <-client.served:
				t.Fatalf("%s served after the cancel", m)
			default:
			}
			p.send(fmt.Sprintf(lateAsk, 3))
			p.expect(`{"jsonrpc":"2.0","id":3,"result":{"outcome":{"outcome":"selected","optionId":"ok"}}}`)
			if m := <-client.served; m != acpv1.MethodRequestPermission {
				t.Fatalf("served %s", m)
			}
		})
	}
}
