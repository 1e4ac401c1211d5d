//go:build ignore

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"sync"
)

// Middleware wraps the handling of every call that passes through a
// connection: each inbound request and notification before its handler,
// and each outbound request and notification (the typed calls, ExtMethod,
// ExtNotification) before it is written. It is the net/http model: a
// Middleware takes the Handler that does the rest of the work and returns
// one that does its own part around it. A Middleware may log, measure,
// authorize, read or add _meta (Call.Meta, Call.SetMeta), derive the
// context it passes on, or refuse the call by returning an error without
// calling next: for an inbound request, an *Error answers it as it is (any
// other error is answered -32603, as a handler's is); for an outbound call
// it is what the caller gets, and nothing is sent.
//
// The types Middleware, Handler and Call are aliases of types made of the
// standard library's alone, so they are one and the same in every package
// acpgen generates: a Middleware written once serves connections of every
// protocol version.
//
// Not passed to middleware: $/cancel_request, which the connection sends
// and handles itself, the answers to requests the connection refuses
// before any handler (malformed, before initialize, too long), and the
// traffic a router reads before a connection exists.
type Middleware = func(next Handler) Handler

// Handler handles one call. For an inbound request, result is the result
// that answers it; for an outbound request, the result the peer sent,
// decoded into the method's result type (a pointer to it), or its error
// (an *Error for an error response). Notifications have no result.
type Handler = func(ctx context.Context, call Call) (result any, err error)

// Call is one request or notification passing through a connection's
// middleware. A middleware that passes next a Call of its own must wrap the
// one it was given and return it from an Unwrap() method: the connection
// finds its own through it.
type Call = interface {
	// Method is the call's method, such as "session/prompt".
	Method() string
	// ID is the id of a request as JSON text (1, "abc"), as received for an
	// inbound request and as sent for an outbound one; "" for a
	// notification.
	ID() string
	// Inbound reports whether the peer sent the call; otherwise this side
	// makes it.
	Inbound() bool
	// Params are the call's params: a pointer to the method's params type
	// (*PromptRequest), a json.RawMessage for an extension method, or nil
	// when the params of an inbound call do not fit their type (the
	// handler then answers -32602). An outbound call's params are the
	// caller's, and must not be changed: SetMeta changes a copy.
	Params() any
	// Meta returns the value of the root key key of the params' _meta, or
	// nil when there is none.
	Meta(key string) json.RawMessage
	// SetMeta sets the root key key of the params' _meta to value, a JSON
	// value, keeping the other keys; a nil value removes the key. On an
	// outbound call the params are copied first (once): the caller's value
	// is left as it was.
	SetMeta(key string, value json.RawMessage)
}

// WithMiddleware adds middleware to the connection, outermost first: the
// first one given, to the first WithMiddleware, sees each call before the
// others and its outcome after them. A connection without middleware does
// no work for it.
func WithMiddleware(mw ...Middleware) ConnOption {
	return func(c *connConfig) {
		for _, m := range mw {
			if m != nil {
				c.middleware = append(c.middleware, m)
			}
		}
	}
}

// chain returns the handler that runs the middleware of cfg around c's own
// handling, or nil when there is none.
func (c *connection) chain() Handler {
	if len(c.cfg.middleware) == 0 {
		return nil
	}
	h := c.callThrough
	for i := len(c.cfg.middleware) - 1; i >= 0; i-- {
		h = c.cfg.middleware[i](h)
	}
	return h
}

// callInfo is the connection's Call.
type callInfo struct {
	method   string
	key      string // an inbound request's id as received
	num      int64  // an outbound request's id; 0 for a notification
	inbound  bool
	request  bool
	typed    string           // an outbound request's result type, by method; "" for raw
	routes   map[string]route // an inbound call's
	params   any
	paramErr error  // an inbound call's params do not fit their type
	raw      []byte // an inbound call's params as received
	copied   bool   // params is a copy of an outbound call's own
}

func (ci *callInfo) Method() string { return ci.method }
func (ci *callInfo) Inbound() bool  { return ci.inbound }

func (ci *callInfo) ID() string {
	if ci.num != 0 {
		return strconv.FormatInt(ci.num, 10)
	}
	return ci.key
}

func (ci *callInfo) Params() any {
	if ci.paramErr != nil {
		return nil
	}
	return ci.params
}

func (ci *callInfo) Meta(key string) json.RawMessage {
	if ci.paramErr != nil {
		return nil
	}
	if raw, ok := ci.params.(json.RawMessage); ok {
		return objectMember(objectMember(raw, "_meta"), key)
	}
	if f := metaField(ci.params, false); f != nil {
		return objectMember(*f.meta, key)
	}
	if raw, ok := asJSON(ci.params); ok {
		return objectMember(objectMember(raw, "_meta"), key)
	}
	return nil
}

func (ci *callInfo) SetMeta(key string, value json.RawMessage) {
	if ci.paramErr != nil {
		return
	}
	if raw, ok := ci.params.(json.RawMessage); ok || ci.params == nil {
		if !ok {
			raw = json.RawMessage("{}")
		}
		meta := setObjectMember(objectMember(raw, "_meta"), key, value)
		ci.params = setObjectMember(raw, "_meta", meta)
		return
	}
	copyParams := !ci.inbound && !ci.copied
	if f := metaField(ci.params, copyParams); f != nil {
		if copyParams {
			ci.params, ci.copied = f.owner, true
		}
		*f.meta = setObjectMember(*f.meta, key, value)
		return
	}
	if raw, ok := asJSON(ci.params); ok {
		// Params of another type (an extension method's): from here on,
		// their JSON.
		ci.params = raw
		ci.SetMeta(key, value)
	}
}

// asJSON returns params written as JSON, when they are a JSON object
// (params without a _meta field of their own: an extension method's).
func asJSON(params any) (json.RawMessage, bool) {
	if isNilPointer(params) {
		return nil, false
	}
	raw, err := json.Marshal(params)
	if err != nil || len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	return raw, true
}

// RawParams returns the params of an inbound call as received, byte for
// byte, whether or not they fit their type (nil when the call has none),
// and nil for an outbound call: a middleware forwards them untouched, or
// reads what Call.Params leaves out. call is the Call a Middleware is
// given, or one that unwraps to it. The bytes must not be changed.
func RawParams(call Call) json.RawMessage {
	if ci := ownCall(call); ci != nil && ci.inbound {
		return ci.raw
	}
	return nil
}

// callThrough is the innermost Handler: the connection's own handling of
// the call, with the params the middleware leaves.
func (c *connection) callThrough(ctx context.Context, call Call) (any, error) {
	ci := ownCall(call)
	if ci == nil {
		return nil, errors.New("acp: a middleware passed on a Call that does not unwrap to the connection's")
	}
	switch {
	case ci.inbound:
		result, err := c.route(ctx, ci.routes, ci.method, ci.request, inParams{value: ci.params, err: ci.paramErr})
		switch {
		case err != errNoHandler:
		case ci.request:
			err = NewMethodNotFoundError(ci.method)
		default:
			c.dropNotification(ci.method, err) // a notification without handler
			err = nil
		}
		return result, err
	case ci.request:
		return c.roundTrip(ctx, ci.num, ci.method, ci.typed, ci.params)
	}
	return nil, c.notifyNow(ctx, ci.method, ci.params)
}

// ownCall finds the connection's callInfo in call, through the Unwrap
// methods of the middleware's own Calls.
func ownCall(call Call) *callInfo {
	for {
		switch v := call.(type) {
		case *callInfo:
			return v
		case interface{ Unwrap() Call }:
			call = v.Unwrap()
		default:
			return nil
		}
	}
}

// metaOf is the _meta field of a params value: a pointer to it, and the
// value that owns it.
type metaOf struct {
	meta  *json.RawMessage
	owner any
}

// metaFields caches the index of the _meta field of each params type (a
// pointer to a struct); -1 when the type has none.
var metaFields sync.Map // reflect.Type -> int

// metaField returns the _meta field of params, a pointer to a struct with
// one; when fresh is set, of a shallow copy of params (or of a new value,
// when params is a nil pointer). It returns nil when params has none. One
// function serves every params type: the field is found by reflection
// once per type.
func metaField(params any, fresh bool) *metaOf {
	v := reflect.ValueOf(params)
	if v.Kind() != reflect.Pointer || v.Type().Elem().Kind() != reflect.Struct {
		return nil
	}
	t := v.Type()
	i, ok := metaFields.Load(t)
	if !ok {
		i = -1
		if f, found := t.Elem().FieldByName("Meta"); found && len(f.Index) == 1 && f.Type == reflect.TypeOf(json.RawMessage(nil)) {
			i = f.Index[0]
		}
		metaFields.Store(t, i)
	}
	if i.(int) < 0 || v.IsNil() && !fresh {
		return nil
	}
	if fresh {
		n := reflect.New(t.Elem())
		if !v.IsNil() {
			n.Elem().Set(v.Elem())
		}
		v = n
	}
	return &metaOf{meta: v.Elem().Field(i.(int)).Addr().Interface().(*json.RawMessage), owner: v.Interface()}
}

// objectMember returns a copy of the value of the member name of the JSON
// object obj, or nil when obj is not an object or has no such member.
func objectMember(obj []byte, name string) json.RawMessage {
	var found json.RawMessage
	_ = forMembers(obj, func(n, v []byte) {
		if string(n) == name {
			found = append(json.RawMessage(nil), v...)
		}
	})
	return found
}

// setObjectMember returns the JSON object obj (an empty one when obj is
// not an object) with its member name set to value, or removed when value
// is nil; the other members keep their order and text.
func setObjectMember(obj []byte, name string, value json.RawMessage) json.RawMessage {
	out := []byte{'{'}
	_ = forMembers(obj, func(n, v []byte) {
		if string(n) != name {
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(appendString(out, string(n)), ':')
			out = append(out, v...)
		}
	})
	if value != nil {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(appendString(out, name), ':')
		out = append(out, value...)
	}
	return append(out, '}')
}

// forMembers calls f with the name and the value text of each member of
// the JSON object obj.
func forMembers(obj []byte, f func(name, value []byte)) error {
	if len(obj) == 0 {
		return nil
	}
	return withDecoder(obj, func(d *decoder) error {
		if d.PeekKind() != '{' {
			return nil
		}
		if _, err := d.ReadToken(); err != nil {
			return err
		}
		for d.PeekKind() != '}' {
			name, err := d.readName()
			if err != nil {
				return err
			}
			v, err := d.ReadValue()
			if err != nil {
				return err
			}
			end := int(d.InputOffset())
			f(name, obj[end-len(v):end])
		}
		return nil
	})
}

// RPCError returns the error's code and message: middleware written for
// every protocol version reads an error response through it.
func (e *Error) RPCError() (code int, message string) { return int(e.Code), e.Message }
