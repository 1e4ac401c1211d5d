package acphttp

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// The default limits: those of the TypeScript SDK's ConnectionLimits and
// of its Node adapter.
const (
	DefaultMaxRequestBodyBytes       = 16 << 20
	DefaultMaxMessageBytes           = 32 << 20
	DefaultMaxBufferedBytes          = 64 << 20
	DefaultMaxOutputStall            = 60 * time.Second
	DefaultMaxBufferedSessionStreams = 1024
	DefaultMaxIDLength               = 1024
)

// Limits bounds what one ACP connection may make the server hold. A field
// left zero takes its default.
type Limits struct {
	// MaxRequestBodyBytes bounds a POST body; a longer one is answered 413.
	MaxRequestBodyBytes int64
	// MaxMessageBytes bounds one message: a WebSocket frame, a line the
	// agent writes, and on the client side an SSE event or a response body.
	MaxMessageBytes int
	// MaxBufferedBytes bounds the output of the agent that its client has
	// not taken yet, over Streamable HTTP. While it is reached, the agent's
	// writes and the client's requests wait. Over WebSocket the agent's
	// writes go to the socket, and wait for it.
	MaxBufferedBytes int
	// MaxOutputStall is how long the connection waits with
	// MaxBufferedBytes of output queued and none taken by the client before
	// it closes.
	MaxOutputStall time.Duration
	// MaxBufferedSessionStreams bounds the session streams that hold
	// output and have no receiver.
	MaxBufferedSessionStreams int
	// MaxIDLength bounds a session id and a string request id, in bytes.
	MaxIDLength int
}

// withDefaults returns l with each zero or negative field set to its
// default.
func (l Limits) withDefaults() Limits {
	if l.MaxRequestBodyBytes <= 0 {
		l.MaxRequestBodyBytes = DefaultMaxRequestBodyBytes
	}
	if l.MaxMessageBytes <= 0 {
		l.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if l.MaxBufferedBytes <= 0 {
		l.MaxBufferedBytes = DefaultMaxBufferedBytes
	}
	if l.MaxOutputStall <= 0 {
		l.MaxOutputStall = DefaultMaxOutputStall
	}
	if l.MaxBufferedSessionStreams <= 0 {
		l.MaxBufferedSessionStreams = DefaultMaxBufferedSessionStreams
	}
	if l.MaxIDLength <= 0 {
		l.MaxIDLength = DefaultMaxIDLength
	}
	return l
}

// LimitError is why a connection was refused something or closed: it
// exceeded one of its Limits.
type LimitError struct {
	Limit string // the Limits field
	Text  string // what was exceeded, as sent to the peer
}

func (e *LimitError) Error() string { return "acphttp: " + e.Text }

// idTooLong returns the error of an id, labelled "Session ID" or "Request
// ID", longer than l allows, or nil.
func (l *Limits) idTooLong(label, id string) *LimitError {
	if len(id) <= l.MaxIDLength {
		return nil
	}
	return &LimitError{"MaxIDLength", fmt.Sprintf("%s exceeds maxIdLength (%d)", label, l.MaxIDLength)}
}

// exceeded returns the error of a connection over the limit field of
// Limits, whose value is v; the text names it as the TypeScript SDK does.
func exceeded(field string, v any) *LimitError {
	name := strings.ToLower(field[:1]) + field[1:]
	return &LimitError{field, fmt.Sprintf("Connection exceeds %s (%v)", name, v)}
}

// stalled returns the error of a connection whose client took none of its
// output for l.MaxOutputStall.
func (l *Limits) stalled() *LimitError {
	return &LimitError{"MaxOutputStall", fmt.Sprintf("Connection output stalled for %v", l.MaxOutputStall)}
}

// ErrClosed is the error of an operation on a closed ACP connection, or on
// a closed client transport.
var ErrClosed = errors.New("acphttp: connection closed")

// errShutdown is the reason of connections closed by Server.Shutdown.
var errShutdown = errors.New("acphttp: server shutting down")
