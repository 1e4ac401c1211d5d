// Package wirelog gives the example programs their wire log: -wire-log
// FILE appends every line read and written to FILE as JSON lines; without
// it, the environment variable ACP_WIRE_LOG names the file (see
// acpv1.WireLogFromEnv). -wire-log-envelopes leaves the messages' contents
// (prompts, file text) out.
package wirelog

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// A Log is the wire log a program's flags ask for.
type Log struct {
	path      *string
	envelopes *bool
	file      func() io.Writer
}

// Flags registers -wire-log and -wire-log-envelopes on the command line's
// flag set; prog names the program in the error of a file it cannot open.
func Flags(prog string) *Log {
	l := &Log{
		path:      flag.String("wire-log", "", "append every message in and out to `FILE` as JSON lines (default: $ACP_WIRE_LOG)"),
		envelopes: flag.Bool("wire-log-envelopes", false, "leave messages' contents (prompts, file text) out of the wire log"),
	}
	l.file = sync.OnceValue(func() io.Writer {
		f, err := os.OpenFile(*l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			fmt.Fprintln(os.Stderr, prog+": wire log:", err)
			return nil
		}
		return f
	})
	return l
}

// V1 is the wire log option of a v1 connection.
func (l *Log) V1() acpv1.ConnOption {
	if *l.path == "" {
		return acpv1.WireLogFromEnv()
	}
	return acpv1.WithWireLog(l.file(), acpv1.WireLogOptions{Envelopes: *l.envelopes})
}

// V2 is the wire log option of a v2 connection.
func (l *Log) V2() acpv2.ConnOption {
	if *l.path == "" {
		return acpv2.WireLogFromEnv()
	}
	return acpv2.WithWireLog(l.file(), acpv2.WireLogOptions{Envelopes: *l.envelopes})
}
