// Command acpconductor runs a chain of ACP proxies in front of an agent
// and presents the chain as one agent:
//
//	acpconductor agent './proxy -inject "[a]"' './proxy -inject "[b]"' ./agent
//	acpconductor -listen 127.0.0.1:8080 agent ./proxy ./agent
//	acpconductor proxy ./proxy './proxy -inject x'
//
// Each component is one argument, split into words as a shell would (no
// shell runs); the last one is the agent. It sends proxy/initialize to the
// proxies and initialize to the agent, routes proxy/successor between
// them with the ids rewritten for each hop and the messages' bytes
// otherwise kept, and with "proxy" runs as a proxy in another conductor's
// chain. Every component ends with the conductor; a component that ends
// ends the chain, with an error naming it and its exit status (exit
// status 1). -wire-log FILE (or $ACP_WIRE_LOG) records every hop. See
// package acpconductor.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/acpgen/acpgen/acpconductor"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := acpconductor.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
