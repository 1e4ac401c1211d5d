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
// version router: a v1 client gets the v1 agent, or with -bridge the v2
// agent through a bridge, and a v2 client the v2 agent. It returns when the
// connection ends, once the v2 agent's turns have.
func serve(w io.Writer, r io.Reader) error {
	if !flag.Parsed() {
		flag.Parse()
	}
	var v2 *agentV2
	router, err := acprouter.New(
		acprouter.NewRoute(1, func(w io.Writer, r io.Reader) *acpv1.AgentSideConnection {
			if *bridge {
				b := convert.NewBridgeFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
					v2 = newAgentV2(c)
					return v2
				}, w, r, convert.BridgeOptions{Undeliverable: undeliverable, V1: []acpv1.ConnOption{wire.V1()}})
				return b.V1()
			}
			return acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
				a := newAgent()
				a.conn = c
				return a
			}, w, r, wire.V1())
		}, convert.InitializeForV1),
		acprouter.NewRoute(2, func(w io.Writer, r io.Reader) *acpv2.AgentSideConnection {
			return acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
				v2 = newAgentV2(c)
				return v2
			}, w, r, wire.V2())
		}, convert.InitializeForV2))
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
	if v2 != nil {
		v2.Wait() // the turns end: their context ended with the connection
	}
	return nil
}

// undeliverable reports on stderr a session update of the v2 agent that the
// bridge could not send to the v1 client.
func undeliverable(n *acpv2.UpdateSessionNotification, err error) {
	fmt.Fprintf(os.Stderr, "agent: session %s: not sent to the v1 client: %v\n", n.SessionID, err)
}
