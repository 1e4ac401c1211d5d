//go:build unstable_mcp_over_acp || unstable

package composition

import (
	"fmt"
	"strings"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/acpgen/acpgen/acpotel"
)

// telemetry is one side's in-memory span recorder.
type telemetry struct {
	side     string
	recorder *tracetest.SpanRecorder
	tp       *sdktrace.TracerProvider
}

func newTelemetry(side string) *telemetry {
	t := &telemetry{side: side, recorder: tracetest.NewSpanRecorder()}
	t.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(t.recorder))
	return t
}

func (t *telemetry) middleware() acpotel.MiddlewareFunc {
	return acpotel.Middleware(acpotel.WithTracerProvider(t.tp))
}

// span is an ended span as the matrix reads it, which the agent process
// writes as JSON.
type span struct {
	Side   string
	Name   string
	Kind   string
	Trace  string
	Parent string // "" for a root
}

func (s span) String() string { return s.Side + ":" + s.Name + "/" + s.Kind }

func (t *telemetry) spans() []span {
	var out []span
	for _, s := range t.recorder.Ended() {
		sp := span{Side: t.side, Name: s.Name(), Kind: s.SpanKind().String(), Trace: s.SpanContext().TraceID().String()}
		if s.Parent().IsValid() {
			sp.Parent = s.Parent().SpanID().String()
		}
		out = append(out, sp)
	}
	return out
}

// checkTrace returns what is wrong with the spans of both sides of a
// cell whose client ran turns prompts: each turn is one trace, whose
// root is the client's session/prompt span, and no span of the agent is
// a root.
func checkTrace(spans []span, turns int) error {
	var roots, agentRoots []string
	prompts := 0
	for _, s := range spans {
		if s.Parent != "" {
			continue
		}
		roots = append(roots, s.String())
		if s.Side == "agent" {
			agentRoots = append(agentRoots, s.String())
		}
		if s.Side == "client" && strings.HasPrefix(s.Name, "session/prompt") {
			prompts++
		}
	}
	if prompts != turns || len(agentRoots) > 0 {
		return fmt.Errorf("%d traces rooted in the client's session/prompt, want %d; %d roots on the agent's side (want none): %v; all roots: %v",
			prompts, turns, len(agentRoots), agentRoots, roots)
	}
	return nil
}
