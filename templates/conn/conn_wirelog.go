//go:build ignore

package acp

import (
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// WireLogOptions tune a wire log (see WithWireLog).
type WireLogOptions struct {
	// MaxLineBytes bounds the message a record holds: a longer one is
	// recorded as a string of its first MaxLineBytes bytes, with
	// "truncated" set. Zero means 64 KiB; a negative value, no bound.
	MaxLineBytes int
	// Envelopes leaves the contents of messages out: a record keeps
	// jsonrpc, id, method, an error's code and message, and of params and
	// result only the members sessionId and _meta, so that prompts, file
	// text and tool output stay out of the log.
	Envelopes bool
}

// The environment variables that WireLogFromEnv reads.
const (
	// EnvWireLog names the file that WireLogFromEnv appends the wire log
	// to; "-" is the standard error.
	EnvWireLog = "ACP_WIRE_LOG"
	// EnvWireLogEnvelopes, set to 1 or true, leaves messages' contents out
	// of it (WireLogOptions.Envelopes).
	EnvWireLogEnvelopes = "ACP_WIRE_LOG_ENVELOPES"
)

// WithWireLog records every line the connection reads and writes to w, as
// JSON lines, one Write each:
//
//	{"time":"2026-01-02T15:04:05.000000001Z","conn":1,"dir":"in","bytes":58,"msg":{"jsonrpc":"2.0","id":1,"method":"session/new","params":{…}}}
//
// time is when the line was read, or handed to the writer; conn numbers
// the connections of the process that log; dir is "in" or "out"; bytes is
// the line's length. msg is the message as it was on the wire, or only its
// envelope (WireLogOptions.Envelopes, with "envelope":true); a line that is
// not JSON, or longer than the bound, is a string in "text" instead, cut
// at the bound ("truncated":true). Errors writing to w are ignored; a w
// that blocks holds the connection up.
func WithWireLog(w io.Writer, opts WireLogOptions) ConnOption {
	return func(c *connConfig) {
		if w == nil {
			c.wire = nil
			return
		}
		c.wire = &wireConfig{w: w, opts: opts}
	}
}

// WireLogFromEnv returns the option that writes the connection's wire log
// to the file that the environment variable ACP_WIRE_LOG names (appended
// to, made if need be; "-" is the standard error), with the contents left
// out when ACP_WIRE_LOG_ENVELOPES is 1 or true. Without ACP_WIRE_LOG it
// does nothing. The connections of a process that name the same file share
// it, opened once, for as long as the process lives; a file that cannot be
// opened is reported, once per connection, to the connection's logger.
func WireLogFromEnv() ConnOption {
	path := os.Getenv(EnvWireLog)
	if path == "" {
		return func(*connConfig) {}
	}
	env := os.Getenv(EnvWireLogEnvelopes)
	opts := WireLogOptions{Envelopes: env == "1" || env == "true"}
	w, err := wireFile(path)
	return func(c *connConfig) {
		c.wire = &wireConfig{w: w, opts: opts, err: err}
	}
}

// wireFiles are the files WireLogFromEnv opened, by path.
var wireFiles struct {
	sync.Mutex
	m map[string]io.Writer
}

// wireFile opens the file path for appending, once per process.
func wireFile(path string) (io.Writer, error) {
	if path == "-" {
		return os.Stderr, nil
	}
	wireFiles.Lock()
	defer wireFiles.Unlock()
	if w := wireFiles.m[path]; w != nil {
		return w, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if wireFiles.m == nil {
		wireFiles.m = map[string]io.Writer{}
	}
	wireFiles.m[path] = f
	return f, nil
}

// wireConfig is what WithWireLog sets.
type wireConfig struct {
	w    io.Writer
	opts WireLogOptions
	err  error // the file could not be opened
}

// wireConns numbers the connections that log.
var wireConns atomic.Int64

// start returns the wire log of a new connection, or nil when it has none.
func (wc *wireConfig) start(logger *slog.Logger) *wireLog {
	switch {
	case wc == nil:
		return nil
	case wc.err != nil:
		logger.Warn("acp: the wire log cannot be written", "error", wc.err)
		return nil
	}
	max := wc.opts.MaxLineBytes
	switch {
	case max == 0:
		max = 64 << 10
	case max < 0:
		max = int(^uint(0) >> 1)
	}
	return &wireLog{w: wc.w, max: max, envelopes: wc.opts.Envelopes, conn: wireConns.Add(1)}
}

// wireLog writes a connection's records.
type wireLog struct {
	w         io.Writer
	max       int
	envelopes bool
	conn      int64

	mu  sync.Mutex
	buf []byte
}

// log records line, read when in is set, else written.
func (l *wireLog) log(in bool, line []byte) {
	now := time.Now().UTC()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := append(l.buf[:0], `{"time":"`...)
	b = now.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","conn":`...)
	b = strconv.AppendInt(b, l.conn, 10)
	if in {
		b = append(b, `,"dir":"in","bytes":`...)
	} else {
		b = append(b, `,"dir":"out","bytes":`...)
	}
	b = strconv.AppendInt(b, int64(len(line)), 10)
	msg := line
	if l.envelopes && json.Valid(line) {
		msg = wireEnvelope(line)
		b = append(b, `,"envelope":true`...)
	}
	switch {
	case len(msg) <= l.max && json.Valid(msg):
		b = append(append(b, `,"msg":`...), msg...)
	case len(msg) <= l.max:
		b = appendString(append(b, `,"text":`...), string(msg))
	default:
		cut := l.max
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		b = appendString(append(b, `,"text":`...), string(msg[:cut]))
		b = append(b, `,"truncated":true`...)
	}
	b = append(b, "}\n"...)
	_, _ = l.w.Write(b)
	if cap(b) <= 64<<10 {
		l.buf = b
	}
}

// wireEnvelope returns the envelope of the JSON-RPC message msg: its members
// other than params, result and error, those two with only their members
// sessionId and _meta, and an error with only its code and message.
func wireEnvelope(msg []byte) []byte {
	out := []byte{'{'}
	_ = forMembers(msg, func(name, v []byte) {
		keep := []string(nil)
		switch string(name) {
		case "params", "result":
			keep = []string{"sessionId", "_meta"}
		case "error":
			keep = []string{"code", "message"}
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(appendString(out, string(name)), ':')
		switch {
		case keep == nil:
			out = append(out, v...)
			return
		case len(v) == 0 || v[0] != '{':
			out = append(out, "null"...) // not an object: contents alone
			return
		}
		inner := len(out)
		out = append(out, '{')
		_ = forMembers(v, func(n, mv []byte) {
			for _, k := range keep {
				if string(n) == k {
					if len(out) > inner+1 {
						out = append(out, ',')
					}
					out = append(append(appendString(out, k), ':'), mv...)
				}
			}
		})
		out = append(out, '}')
	})
	return append(out, '}')
}
