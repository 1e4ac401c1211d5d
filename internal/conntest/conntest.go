// Package conntest holds the connection tests that every generated package
// with sides runs: Go to Go over io.Pipe, and line by line on the wire.
// Each package drives them through a small adapter (Package): its
// connections, and test implementations of its Agent and Client whose
// methods hand their params, as JSON, to the handlers of this package.
package conntest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
)

// Conn is what the tests use of a connection of either side beyond its
// typed calls; the generated AgentSideConnection and ClientSideConnection
// have these methods.
type Conn interface {
	Close() error
	Done() <-chan struct{}
	Err() error
	ExtMethod(ctx context.Context, method string, params any) (json.RawMessage, error)
	ExtNotification(ctx context.Context, method string, params any) error
}

// Call makes one typed outbound call of a connection: params, as JSON, are
// decoded into the method's params type, and the result comes back as JSON
// (null for a notification).
type Call func(ctx context.Context, params string) (json.RawMessage, error)

// Request returns the Call of the typed request method f of a connection.
func Request[P, R any](f func(context.Context, *P) (*R, error)) Call {
	return func(ctx context.Context, params string) (json.RawMessage, error) {
		p := new(P)
		if err := unmarshal([]byte(params), p); err != nil {
			return nil, fmt.Errorf("params %.100s: %w", params, err)
		}
		r, err := f(ctx, p)
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, errors.New("conntest: a nil result without error")
		}
		raw, err := marshal(r)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errWritingResult, err)
		}
		return raw, nil
	}
}

// errWritingResult is the error of a Call whose result came but cannot be
// written as JSON, such as the zero result of a method with a required
// member.
var errWritingResult = errors.New("conntest: writing the result")

// Notification returns the Call of the typed notification method f of a
// connection.
func Notification[P any](f func(context.Context, *P) error) Call {
	return func(ctx context.Context, params string) (json.RawMessage, error) {
		p := new(P)
		if err := unmarshal([]byte(params), p); err != nil {
			return nil, fmt.Errorf("params %.100s: %w", params, err)
		}
		return json.RawMessage("null"), f(ctx, p)
	}
}

// Handler answers one method of a test implementation: its params as JSON
// in, its result (written as JSON) out.
type Handler func(ctx context.Context, params json.RawMessage) (any, error)

// Handlers are what a test Agent or Client does, by method; tests change
// them while the connection runs.
type Handlers struct {
	// Ext, when set before the connection is made, makes the implementation
	// handle extension methods (ExtMethodHandler, ExtNotificationHandler):
	// they are answered by the handlers "_method" and "_notification".
	Ext bool

	mu sync.Mutex
	m  map[string]Handler
}

// Set makes h answer method.
func (hs *Handlers) Set(method string, h Handler) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.m == nil {
		hs.m = map[string]Handler{}
	}
	hs.m[method] = h
}

func (hs *Handlers) get(method string) Handler {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	return hs.m[method]
}

// call hands params, written as JSON, to the handler of method.
func (hs *Handlers) call(ctx context.Context, method string, params any) (any, error) {
	h := hs.get(method)
	if h == nil {
		return nil, fmt.Errorf("conntest: no handler for %s", method)
	}
	raw, err := marshal(params)
	if err != nil {
		return nil, err
	}
	return h(ctx, raw)
}

// Serve is the body of a request method of a test implementation: the
// handler of method answers, and its result is read into an R; a nil
// result stays nil.
func Serve[R any](ctx context.Context, hs *Handlers, method string, params any) (*R, error) {
	res, err := hs.call(ctx, method, params)
	if err != nil || res == nil {
		// A nil result without error is the connection's to answer.
		return nil, err
	}
	raw, err := marshal(res)
	if err != nil {
		return nil, err
	}
	r := new(R)
	if err := unmarshal(raw, r); err != nil {
		return nil, fmt.Errorf("conntest: result %s of %s: %w", raw, method, err)
	}
	return r, nil
}

// Handle is the body of a notification method of a test implementation.
func Handle(ctx context.Context, hs *Handlers, method string, params any) error {
	_, err := hs.call(ctx, method, params)
	return err
}

// Ext gives a test implementation the extension methods, answered by the
// handlers "_method" (with {"method","params"} as params) and
// "_notification".
type Ext struct{ H *Handlers }

// ExtMethod answers an extension request.
func (e Ext) ExtMethod(ctx context.Context, method string, params json.RawMessage) (any, error) {
	return e.H.call(ctx, "_method", map[string]any{"method": method, "params": params})
}

// ExtNotification handles an extension notification.
func (e Ext) ExtNotification(ctx context.Context, method string, params json.RawMessage) error {
	_, err := e.H.call(ctx, "_notification", map[string]any{"method": method, "params": params})
	return err
}

// Side makes the connection of one side, serving a test implementation that
// hands its methods to hs, with the options o, and returns it with its typed
// calls by method.
type Side func(hs *Handlers, w io.Writer, r io.Reader, o Options) (Conn, map[string]Call)

// Options are the options of a connection under test: the fields of the
// package's Limits (zero for the default), and its logger (nil for the
// default).
type Options struct {
	MaxMessageBytes       int
	MaxIDLength           int
	MaxConcurrentRequests int
	MaxBufferedBytes      int
	OutputStall           time.Duration
	Logger                *slog.Logger
}

// Package is one generated package under test.
type Package struct {
	Version string // "v1", "v2"
	Agent   Side   // calls: session/update, session/request_permission
	Client  Side   // calls: initialize, session/new, session/prompt, session/cancel

	// InitializeParams and InitializeResult are what the client sends and
	// the test agent answers; PromptResult is the test agent's answer to a
	// prompt; PermissionParams are the params of a permission request
	// (fmt verbs: the session id, quoted).
	InitializeParams, InitializeResult, PromptResult, PermissionParams string

	// NotFound returns the package's resource-not-found error for uri.
	NotFound func(uri string) error
	// IsCode reports whether err is the package's *Error with this code.
	IsCode func(err error, code int) bool
}

// isCancel reports whether err is the cancellation of a context.
func isCancel(err error) bool { return errors.Is(err, context.Canceled) }

// marshal writes v as JSON with its own MarshalJSON when it has one (the
// generated types), without encoding/json's pass over the output: the
// tests send lines of 10 MB.
func marshal(v any) (json.RawMessage, error) {
	if m, ok := v.(json.Marshaler); ok {
		return m.MarshalJSON()
	}
	return json.Marshal(v)
}

// unmarshal reads data into v with its own UnmarshalJSON when it has one.
func unmarshal(data []byte, v any) error {
	if u, ok := v.(json.Unmarshaler); ok {
		return u.UnmarshalJSON(data)
	}
	return json.Unmarshal(data, v)
}
