//go:build ignore

package acp

import (
	"context"
	"log/slog"
	"time"
)

// Limits bound what a connection holds for its peer. A zero field takes its
// default (see DefaultLimits); a negative one lifts the limit.
type Limits struct {
	// MaxMessageBytes is the length of the longest line read, newline
	// excluded. A longer line is read past without being held whole, and
	// answered: a request whose id can be read -32600, any other line -32700
	// with id null; a response to a call fails the call. The connection
	// serves on.
	MaxMessageBytes int
	// MaxIDLength is the length, in characters of its JSON text (without a
	// string's quotes), of the longest id a request may have; a request with
	// a longer one is answered -32600 with id null and not handled.
	MaxIDLength int
	// MaxConcurrentRequests is how many inbound requests are served at once.
	// When that many are being served, the connection stops reading until
	// one of them is answered: a handler that waits for the peer's answer to
	// an outbound call may then wait for good (responses are read in turn
	// with the requests).
	MaxConcurrentRequests int
	// MaxBufferedBytes is how many bytes of outbound messages are queued for
	// the writer before a sender waits (for at most its context).
	MaxBufferedBytes int
	// OutputStall is how long a write may stay blocked (the peer not
	// reading) before the connection ends with an error that says so.
	OutputStall time.Duration
}

// The default limits: those of the TypeScript SDK where it has them.
const (
	defaultMaxMessageBytes       = 32 << 20
	defaultMaxIDLength           = 1024
	defaultMaxConcurrentRequests = 256
	defaultMaxBufferedBytes      = 64 << 20
	defaultOutputStall           = 60 * time.Second
)

// DefaultLimits returns the limits of a connection made without WithLimits:
// messages of 32 MiB, ids of 1,024 characters, 256 requests served at
// once, 64 MiB of output queued and an output stall of 60 s.
func DefaultLimits() Limits {
	return Limits{
		MaxMessageBytes:       defaultMaxMessageBytes,
		MaxIDLength:           defaultMaxIDLength,
		MaxConcurrentRequests: defaultMaxConcurrentRequests,
		MaxBufferedBytes:      defaultMaxBufferedBytes,
		OutputStall:           defaultOutputStall,
	}
}

// A ConnOption sets up a connection when it is made.
type ConnOption func(*connConfig)

// connConfig is what the options of a connection set.
type connConfig struct {
	limits     Limits
	logger     *slog.Logger
	middleware []Middleware // WithMiddleware's, outermost first
	wire       *wireConfig  // WithWireLog's
	onDrop     func(Drop)   // WithDropHandler's
}

// WithLimits sets the limits of the connection: a zero field keeps its
// default, a negative one lifts the limit.
func WithLimits(l Limits) ConnOption {
	return func(c *connConfig) {
		d := DefaultLimits()
		c.limits = Limits{
			MaxMessageBytes:       pick(l.MaxMessageBytes, d.MaxMessageBytes),
			MaxIDLength:           pick(l.MaxIDLength, d.MaxIDLength),
			MaxConcurrentRequests: pick(l.MaxConcurrentRequests, d.MaxConcurrentRequests),
			MaxBufferedBytes:      pick(l.MaxBufferedBytes, d.MaxBufferedBytes),
			OutputStall:           pick(l.OutputStall, d.OutputStall),
		}
	}
}

// WithLogger sets the logger that records what the connection cannot tell
// its peer: a handler's panic, with its value and stack, and the inbound
// messages it drops (see WithDropHandler). Without it, the
// connection logs to slog.Default(); WithLogger(nil) logs nothing.
func WithLogger(l *slog.Logger) ConnOption {
	return func(c *connConfig) {
		if l == nil {
			l = slog.New(discardHandler{})
		}
		c.logger = l
	}
}

// pick is v, or def when v is zero, or the largest value when v is negative.
func pick[T int | time.Duration](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return T(int(^uint(0) >> 1))
	}
	return v
}

// newConfig applies opts to the defaults.
func newConfig(opts []ConnOption) connConfig {
	c := connConfig{limits: DefaultLimits()}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.logger == nil {
		c.logger = slog.Default()
	}
	return c
}

// discardHandler is the slog.Handler of WithLogger(nil).
type discardHandler struct{}

func (discardHandler) Enabled(context.Context, slog.Level) bool  { return false }
func (discardHandler) Handle(context.Context, slog.Record) error { return nil }
func (h discardHandler) WithAttrs([]slog.Attr) slog.Handler      { return h }
func (h discardHandler) WithGroup(string) slog.Handler           { return h }
