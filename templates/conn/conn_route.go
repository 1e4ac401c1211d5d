//go:build ignore

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
)

// Routes: what calls the handler of an inbound method, with its params in
// their type. The side files of the package hold the routing tables, one
// route a method; route picks the route, or the extension handler, at the
// end of the middleware.

// route serves one inbound method: it calls impl's handler with the params,
// decoded into the method's params type, or returns errNoHandler when impl
// does not implement the method's optional interface.
type route func(ctx context.Context, impl any, params inParams) (any, error)

// inParams are the params of an inbound call, decoded as the line was read.
type inParams struct {
	value any    // a new value of the params type, or a json.RawMessage
	err   error  // the params do not fit their type
	raw   []byte // the params as received, when there is middleware
}

var errNoHandler = errors.New("no handler for the method")

// route calls the route of method, or the extension handler.
func (c *connection) route(ctx context.Context, routes map[string]route, method string, request bool, params inParams) (any, error) {
	if r := routes[method]; r != nil {
		return r(ctx, c.impl, params)
	}
	if len(method) > 1 && method[0] == '_' {
		raw, _ := params.value.(json.RawMessage)
		if request {
			if h, ok := c.impl.(ExtMethodHandler); ok {
				return h.ExtMethod(ctx, method, raw)
			}
		} else if h, ok := c.impl.(ExtNotificationHandler); ok {
			return nil, h.ExtNotification(ctx, method, raw)
		}
	}
	return nil, errNoHandler
}

// serveRequest calls the handler of a request with its params; a nil
// result with a nil error is answered with the zero result. P and R are
// pointer types, so that every method shares one instantiation.
func serveRequest[P, R any](ctx context.Context, params inParams, h func(context.Context, P) (R, error)) (any, error) {
	var none R
	p, err := paramsOf[P](params)
	if err != nil {
		return nil, err
	}
	r, err := h(ctx, p)
	if err != nil {
		return nil, err
	}
	if any(r) == any(none) {
		return newValue(none, nil)
	}
	return r, nil
}

// serveNotification calls the handler of a notification with its params.
func serveNotification[P any](ctx context.Context, params inParams, h func(context.Context, P) error) (any, error) {
	p, err := paramsOf[P](params)
	if err != nil {
		return nil, err
	}
	return nil, h(ctx, p)
}

// paramsOf returns the params of an inbound call as a P, a pointer to the
// params type, or the invalid params error that names where they do not
// fit.
func paramsOf[P any](params inParams) (P, error) {
	var none P
	if params.err != nil {
		return none, invalidParams(params.err)
	}
	if p, ok := params.value.(P); ok && any(p) != any(none) {
		return p, nil
	}
	v, err := rawParams(none, params.value)
	if err != nil {
		return none, err
	}
	return v.(P), nil
}

// rawParams returns a new value of the params type that none, a nil
// pointer, points to, decoded from value, the raw JSON of params without a
// decoder of their own; any other value means the params are missing.
func rawParams(none, value any) (any, error) {
	if _, ok := value.(json.RawMessage); !ok {
		return nil, NewInvalidParamsError(map[string]string{"details": "params are missing"})
	}
	v, err := newValue(none, value)
	if err != nil {
		return nil, invalidParams(err)
	}
	return v, nil
}

// newValue returns a new value of the type that ptr, a pointer (nil or
// not), points to: decoded from v when v is raw JSON, else the zero value.
// It is the part of call, serveRequest and paramsOf that needs the type
// itself, off their usual path, and the copy that deepCopy decodes.
func newValue(ptr, v any) (any, error) {
	p := reflect.New(reflect.TypeOf(ptr).Elem()).Interface()
	if raw, ok := v.(json.RawMessage); ok {
		if err := decodeValid(raw, p); err != nil {
			return nil, err
		}
	}
	return p, nil
}
