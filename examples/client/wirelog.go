package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// The wire log: -wire-log FILE appends every line read and written to FILE
// as JSON lines; without it, the environment variable ACP_WIRE_LOG names
// the file (see acpv1.WireLogFromEnv).
var (
	wireLog          = flag.String("wire-log", "", "append every message in and out to `FILE` as JSON lines (default: $ACP_WIRE_LOG)")
	wireLogEnvelopes = flag.Bool("wire-log-envelopes", false, "leave messages' contents (prompts, file text) out of the wire log")
)

var wireFile = sync.OnceValue(func() io.Writer {
	f, err := os.OpenFile(*wireLog, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, "client: wire log:", err)
		return nil
	}
	return f
})

// wireV1 is the wire log option of a v1 connection.
func wireV1() acpv1.ConnOption {
	if *wireLog == "" {
		return acpv1.WireLogFromEnv()
	}
	return acpv1.WithWireLog(wireFile(), acpv1.WireLogOptions{Envelopes: *wireLogEnvelopes})
}
