// Package acpotel traces and measures Agent Client Protocol connections
// with OpenTelemetry: Middleware returns the middleware of a generated
// package's connections (acpv1.WithMiddleware, acpv2.WithMiddleware, the
// bridge's BridgeOptions.Middleware) that starts a span for each request
// and notification, on each side, records the calls' durations and the
// requests in flight, and carries W3C trace context from one side to the
// other in the root keys traceparent, tracestate and baggage of the
// messages' _meta, as ACP reserves them.
//
// Spans, attributes and metrics follow the OpenTelemetry semantic
// conventions for RPC, version 1.43.0 (go.opentelemetry.io/otel/semconv/v1.43.0),
// with rpc.system.name "jsonrpc": a span is named after its method
// ("session/prompt"), is of kind client for a call this side makes and
// server for one it handles, and carries rpc.method, jsonrpc.request.id
// (requests only), jsonrpc.protocol.version and, for an error,
// rpc.response.status_code and error.type (the JSON-RPC error code, as a
// string) with the span's status set to Error.
//
// A prompt turn is one span: the session/update notifications of the
// session while its session/prompt is in flight (on either side) are
// events of that span, not spans of their own, since a turn streams
// hundreds of them and a trace with a span for each would bury the calls
// that matter. An update outside a turn is a span like any notification.
//
// The package depends on OpenTelemetry; the generated packages do not, nor
// does a program that does not import this one. It imports no generated
// package either: the middleware types of every generated package are one
// and the same type, which Middleware returns. It is part of the acpgen
// module, so that it is released and tested with the generated packages
// whose middleware type it must match.
package acpotel

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/acpgen/acpgen/acpotel"

// Call is a call passing through a connection's middleware: the Call of
// every generated package (acpv1.Call, acpv2.Call) is this type.
type Call = interface {
	Method() string
	ID() string
	Inbound() bool
	Params() any
	Meta(key string) json.RawMessage
	SetMeta(key string, value json.RawMessage)
}

// Handler handles a Call; the Handler of every generated package is this
// type.
type Handler = func(ctx context.Context, call Call) (result any, err error)

// MiddlewareFunc is the middleware type of every generated package
// (acpv1.Middleware, acpv2.Middleware).
type MiddlewareFunc = func(next Handler) Handler

// An Option configures Middleware.
type Option func(*config)

type config struct {
	tp         trace.TracerProvider
	mp         metric.MeterProvider
	propagator propagation.TextMapPropagator
}

// WithTracerProvider sets the tracer provider; the default is the global
// one (otel.GetTracerProvider).
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tp = tp }
}

// WithMeterProvider sets the meter provider; the default is the global
// one (otel.GetMeterProvider).
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.mp = mp }
}

// WithPropagator sets how trace context goes in and out of _meta. The
// default is W3C trace context and baggage (traceparent, tracestate,
// baggage), whatever the global propagator is: ACP reserves those keys.
func WithPropagator(p propagation.TextMapPropagator) Option {
	return func(c *config) { c.propagator = p }
}

// Middleware returns the middleware that traces and measures the calls of
// the connections it is given to. One Middleware may serve any number of
// connections, of any protocol version.
func Middleware(opts ...Option) MiddlewareFunc {
	c := config{}
	for _, o := range opts {
		o(&c)
	}
	if c.tp == nil {
		c.tp = otel.GetTracerProvider()
	}
	if c.mp == nil {
		c.mp = otel.GetMeterProvider()
	}
	if c.propagator == nil {
		c.propagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	}
	t := &tracer{
		tracer:     c.tp.Tracer(ScopeName, trace.WithSchemaURL(semconv.SchemaURL)),
		propagator: c.propagator,
		turns:      map[string]trace.Span{},
	}
	t.metrics = newMetrics(c.mp.Meter(ScopeName, metric.WithSchemaURL(semconv.SchemaURL)))
	return t.wrap
}

// The methods the middleware knows by name, alike in every version.
const (
	methodPrompt = "session/prompt"
	methodUpdate = "session/update"
)

type tracer struct {
	tracer     trace.Tracer
	propagator propagation.TextMapPropagator
	metrics    *metrics

	mu    sync.Mutex
	turns map[string]trace.Span // the prompt turns in flight, by session id
}

func (t *tracer) wrap(next Handler) Handler {
	return func(ctx context.Context, call Call) (any, error) {
		method, inbound := call.Method(), call.Inbound()
		carrier := metaCarrier{call}
		if inbound {
			ctx = t.propagator.Extract(ctx, carrier)
		}
		if method == methodUpdate {
			if turn := t.turn(sessionOf(call.Params())); turn != nil {
				return t.event(ctx, turn, call, next)
			}
		}
		kind := trace.SpanKindClient
		if inbound {
			kind = trace.SpanKindServer
		}
		attrs := []attribute.KeyValue{semconv.RPCSystemNameJSONRPC, semconv.RPCMethod(method)}
		id := call.ID()
		if id != "" {
			attrs = append(attrs, semconv.JSONRPCRequestID(requestID(id)))
		}
		ctx, span := t.tracer.Start(ctx, method, trace.WithSpanKind(kind),
			trace.WithAttributes(append(attrs, semconv.JSONRPCProtocolVersion("2.0"))...))
		defer span.End()
		if !inbound {
			t.propagator.Inject(ctx, carrier)
		}
		if method == methodPrompt {
			if session := sessionOf(call.Params()); session != "" {
				defer t.startTurn(session, span)()
			}
		}
		start := time.Now()
		done := t.metrics.begin(ctx, inbound, id != "", attrs)
		result, err := next(ctx, call)
		if err != nil {
			code := errorCode(ctx, err, inbound)
			span.SetStatus(codes.Error, err.Error())
			status := []attribute.KeyValue{semconv.RPCResponseStatusCode(code), semconv.ErrorTypeKey.String(code)}
			span.SetAttributes(status...)
			attrs = append(attrs, status...)
		}
		done(time.Since(start), attrs)
		return result, err
	}
}

// event records the session/update call as an event of its turn's span.
func (t *tracer) event(ctx context.Context, turn trace.Span, call Call, next Handler) (any, error) {
	dir := "sent"
	if call.Inbound() {
		dir = "received"
	} else {
		t.propagator.Inject(trace.ContextWithSpan(ctx, turn), metaCarrier{call})
	}
	result, err := next(ctx, call)
	attrs := []attribute.KeyValue{attribute.String("acp.direction", dir)}
	if err != nil {
		attrs = append(attrs, attribute.String("exception.message", err.Error()))
	}
	turn.AddEvent(methodUpdate, trace.WithAttributes(attrs...))
	return result, err
}

// turn returns the span of session's prompt turn in flight, if any.
func (t *tracer) turn(session string) trace.Span {
	if session == "" {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.turns[session]
}

// startTurn records the span of a prompt turn of session; the func it
// returns ends the record.
func (t *tracer) startTurn(session string, span trace.Span) func() {
	t.mu.Lock()
	t.turns[session] = span
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		if t.turns[session] == span {
			delete(t.turns, session)
		}
		t.mu.Unlock()
	}
}

// rpcError is the method of the generated packages' *Error.
type rpcError interface {
	RPCError() (code int, message string)
}

// errorCode is the JSON-RPC error code of err, as a string: an error
// response's own; for another error of a handler, the code the
// connection answers it with (-32800 when the request was cancelled,
// -32603 otherwise); for a failed outbound call, the error's Go type.
func errorCode(ctx context.Context, err error, inbound bool) string {
	var e rpcError
	switch {
	case errors.As(err, &e):
		code, _ := e.RPCError()
		return strconv.Itoa(code)
	case inbound && ctx.Err() != nil:
		return "-32800"
	case inbound:
		return "-32603"
	}
	return semconv.ErrorType(err).Value.AsString()
}

// requestID is the id of a request, written as JSON, as the attribute
// holds it: a string's text, a number's digits.
func requestID(id string) string {
	if len(id) > 1 && id[0] == '"' {
		var s string
		if json.Unmarshal([]byte(id), &s) == nil {
			return s
		}
	}
	return id
}
