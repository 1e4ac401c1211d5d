package main

import (
	"fmt"
	"io"
	"os"

	"github.com/acpgen/acpgen/acpclient"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// duties serves the agent's file requests, confined to the working
// directory of each session (the client's own), and its terminal requests,
// running the commands in process groups that end with the client.
var duties = acpclient.New(acpclient.Options{Read: true, Write: true, Terminals: true})

// connOptions are the options of the connection to the agent: the wire log,
// the middleware that tells duties of the sessions the client opens, and
// the one that answers a cancelled turn's permission requests.
func connOptions() []acpv1.ConnOption {
	return []acpv1.ConnOption{wire.V1(), acpv1.WithMiddleware(duties.Middleware(), turns.Middleware())}
}

// printDrop prints on stderr a message from the agent that the connection
// drops in silence (a notification whose params do not fit, a line over the
// limit), with its method and the reason.
func printDrop(d acpclient.Drop) {
	method := d.Method
	if method == "" {
		method = "a line"
	}
	fmt.Fprintf(os.Stderr, "client: dropped %s: %s\n", method, d.Reason)
}

// watch wraps the agent's output so that printDrop hears of what the
// connection drops.
func watch(fromAgent io.Reader, toAgent io.Writer) (io.Reader, io.Writer) {
	return acpclient.WatchV1(fromAgent, 0, printDrop), toAgent
}
