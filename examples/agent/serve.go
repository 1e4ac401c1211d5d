package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/acpgen/acpgen/acprouter"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

var bridge = flag.Bool("bridge", false, "serve v1 clients with the v2 agent, through convert.Bridge")

// serve serves one client, writing to w and reading from r, through the
// version router. It returns when the connection ends, once the v2 agent's
// turns have.
func serve(w io.Writer, r io.Reader) error {
	router, err := newRouter()
	if err != nil {
		return err
	}
	conn, err := router.Serve(w, r)
	if errors.Is(err, acprouter.ErrNoInitialize) {
		return nil // the client left before it began
	}
	if err != nil {
		return err
	}
	<-conn.Done()
	return closeErr(conn)
}

// closeErr returns why conn ended when that was a failure, and nil when
// the client closed its end, the normal close.
func closeErr(conn acprouter.Conn) error {
	c, ok := conn.(interface{ Err() error })
	if !ok {
		return nil
	}
	err := c.Err()
	if err == nil || errors.Is(err, acpv1.ErrPeerClosed) || errors.Is(err, acpv2.ErrPeerClosed) {
		return nil
	}
	return err
}

// newRouter returns the version router of the example: a v1 client gets
// the v1 agent, or with -bridge the v2 agent through a bridge, and a v2
// client the v2 agent. Each connection it starts is done once the v2
// agent's turns have ended too.
func newRouter() (*acprouter.Router, error) {
	if !flag.Parsed() {
		flag.Parse()
	}
	return acprouter.New(
		acprouter.NewRoute(1, func(w io.Writer, r io.Reader) acprouter.Conn {
			if *bridge {
				var v2 *agentV2
				b := convert.NewBridgeFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
					v2 = newAgentV2(c)
					return v2
				}, w, r, convert.BridgeOptions{Undeliverable: undeliverable, V1: []acpv1.ConnOption{wire.V1()}})
				return withTurns(b.V1(), func() {
					if v2 != nil {
						v2.Wait()
					}
				})
			}
			var v1 *agent
			c := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
				v1 = newAgent(c)
				return v1
			}, w, r, wire.V1())
			return withTurns(c, func() {
				if v1 != nil {
					v1.Wait()
				}
			})
		}, convert.InitializeForV1),
		acprouter.NewRoute(2, func(w io.Writer, r io.Reader) acprouter.Conn {
			var v2 *agentV2
			c := acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
				v2 = newAgentV2(c)
				return v2
			}, w, r, wire.V2())
			return withTurns(c, func() {
				if v2 != nil {
					v2.Wait()
				}
			})
		}, convert.InitializeForV2))
}

// turnsConn is a connection of an agent that is done once the
// connection and the agent's turns have ended (their context ends with the
// connection).
type turnsConn struct {
	conn interface {
		acprouter.Conn
		Close() error
	}
	done chan struct{}
}

// Err returns why the connection ended, nil while it is open.
func (t *turnsConn) Err() error {
	if c, ok := t.conn.(interface{ Err() error }); ok {
		return c.Err()
	}
	return nil
}

// withTurns returns conn, done once wait, which waits for the turns of
// the agent the connection made, has returned as well.
func withTurns(conn interface {
	acprouter.Conn
	Close() error
}, wait func()) *turnsConn {
	t := &turnsConn{conn: conn, done: make(chan struct{})}
	go func() {
		defer close(t.done)
		<-conn.Done()
		wait()
	}()
	return t
}

// Done is closed once the connection and its turns have ended.
func (t *turnsConn) Done() <-chan struct{} { return t.done }

// Close closes the connection.
func (t *turnsConn) Close() error { return t.conn.Close() }

// undeliverable reports on stderr a session update of the v2 agent that the
// bridge could not send to the v1 client.
func undeliverable(n *acpv2.UpdateSessionNotification, err error) {
	fmt.Fprintf(os.Stderr, "agent: session %s: not sent to the v1 client: %v\n", n.SessionID, err)
}
