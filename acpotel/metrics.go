package acpotel

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// The metrics, after the RPC semantic conventions: the duration of each
// call, made and handled (its count is the calls, by rpc.method; with
// error.type, the errors), and the requests in flight.
const (
	metricClientDuration = "rpc.client.call.duration"
	metricServerDuration = "rpc.server.call.duration"
	metricClientInFlight = "rpc.client.active_requests"
	metricServerInFlight = "rpc.server.active_requests"
)

type metrics struct {
	clientDuration, serverDuration metric.Float64Histogram
	clientInFlight, serverInFlight metric.Int64UpDownCounter
}

// newMetrics makes the instruments of m; an instrument m cannot make is a
// no-op one, as the API returns it.
func newMetrics(m metric.Meter) *metrics {
	out := &metrics{}
	out.clientDuration, _ = m.Float64Histogram(metricClientDuration, metric.WithUnit("s"),
		metric.WithDescription("The duration of the calls this side makes, requests and notifications."))
	out.serverDuration, _ = m.Float64Histogram(metricServerDuration, metric.WithUnit("s"),
		metric.WithDescription("The duration of the calls this side handles, requests and notifications."))
	out.clientInFlight, _ = m.Int64UpDownCounter(metricClientInFlight, metric.WithUnit("{request}"),
		metric.WithDescription("The requests this side made that await their answer."))
	out.serverInFlight, _ = m.Int64UpDownCounter(metricServerInFlight, metric.WithUnit("{request}"),
		metric.WithDescription("The requests this side is handling."))
	return out
}

// begin records a call's start; the func it returns records its end, with
// its duration and the attributes of its outcome.
func (m *metrics) begin(ctx context.Context, inbound, request bool, attrs []attribute.KeyValue) func(time.Duration, []attribute.KeyValue) {
	duration, inFlight := m.clientDuration, m.clientInFlight
	if inbound {
		duration, inFlight = m.serverDuration, m.serverInFlight
	}
	started := metric.WithAttributes(attrs...)
	if request {
		inFlight.Add(ctx, 1, started)
	}
	return func(d time.Duration, outcome []attribute.KeyValue) {
		if request {
			inFlight.Add(ctx, -1, started)
		}
		duration.Record(ctx, d.Seconds(), metric.WithAttributes(outcome...))
	}
}
