package acpv2test

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// TestClientCancelWaitEnds: a Cancel of a running turn whose agent never
// goes idle ends with ErrCancelIgnored after the router's CancelWait, and
// one waiting when the session closes ends with ErrSessionClosed.
func TestClientCancelWaitEnds(t *testing.T) {
	for _, how := range []string{"ignored", "closed"} {
		t.Run(how, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			client := &countingClient{served: make(chan string, 4)}
			if how == "ignored" {
				client.CancelWait = time.Millisecond
			}
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
			type result struct {
				stop string
				err  error
			}
			done := make(chan result, 1)
			go func() {
				stop, err := s.Cancel(ctx)
				done <- result{stop, err}
			}()
			p.expect(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"sess_1"}}`)
			want := acpv2.ErrCancelIgnored
			if how == "closed" {
				want = acpv2.ErrSessionClosed
				s.Close()
			}
			if r := <-done; r.stop != "" || !errors.Is(r.err, want) {
				t.Fatalf("Cancel: %q, %v; want %v", r.stop, r.err, want)
			}
		})
	}
}
