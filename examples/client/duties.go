package main

import (
	"fmt"
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
// printDrop, which hears of each message of the agent the connection drops.
func connOptions() []acpv1.ConnOption {
	return []acpv1.ConnOption{wire.V1(), acpv1.WithMiddleware(duties.Middleware()), acpv1.WithDropHandler(printDrop)}
}

// printDrop prints on stderr a message from the agent that the connection
// drops (a notification whose params do not fit, a line over the limit, a
// response to no call), with its method and the reason.
func printDrop(d acpv1.Drop) {
	method := d.Method
	if method == "" {
		method = "a line"
	}
	fmt.Fprintf(os.Stderr, "client: dropped %s: %s\n", method, d.Reason)
}
