package acpotel_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/acpgen/acpgen/acpotel"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// The middleware is the one type of every generated package.
var (
	_ acpv1.Middleware = acpotel.Middleware()
	_ acpv2.Middleware = acpotel.Middleware()
)

// telemetry is an in-memory span recorder and metric reader.
type telemetry struct {
	spans  *tracetest.SpanRecorder
	tp     *sdktrace.TracerProvider
	reader *sdkmetric.ManualReader
	mp     *sdkmetric.MeterProvider
}

func newTelemetry() *telemetry {
	t := &telemetry{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	t.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(t.spans))
	t.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(t.reader))
	return t
}

func (t *telemetry) middleware() acpotel.MiddlewareFunc {
	return acpotel.Middleware(acpotel.WithTracerProvider(t.tp), acpotel.WithMeterProvider(t.mp))
}

// find returns the one ended span of name and kind.
func (t *telemetry) find(tb testing.TB, name string, kind trace.SpanKind) sdktrace.ReadOnlySpan {
	tb.Helper()
	var found []sdktrace.ReadOnlySpan
	for _, s := range t.spans.Ended() {
		if s.Name() == name && s.SpanKind() == kind {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		tb.Fatalf("%d spans %s of kind %v, want 1; spans: %s", len(found), name, kind, t.names())
	}
	return found[0]
}

func (t *telemetry) names() string {
	var names []string
	for _, s := range t.spans.Ended() {
		names = append(names, s.Name()+"/"+s.SpanKind().String())
	}
	return strings.Join(names, " ")
}

func attr(s sdktrace.ReadOnlySpan, key string) string {
	for _, kv := range s.Attributes() {
		if string(kv.Key) == key {
			return kv.Value.Emit()
		}
	}
	return ""
}

// childOf fails tb unless child's parent is parent, in parent's trace.
func childOf(tb testing.TB, child, parent sdktrace.ReadOnlySpan) {
	tb.Helper()
	if child.Parent().SpanID() != parent.SpanContext().SpanID() || child.SpanContext().TraceID() != parent.SpanContext().TraceID() {
		tb.Errorf("span %s/%v has parent %v, want %s/%v (%v)", child.Name(), child.SpanKind(), child.Parent().SpanID(),
			parent.Name(), parent.SpanKind(), parent.SpanContext().SpanID())
	}
}

// agentV1 asks for permission, reads a file and streams an update during
// each prompt, with the context of the prompt.
type agentV1 struct {
	conn *acpv1.AgentSideConnection
	mu   sync.Mutex
	meta json.RawMessage // the _meta of the last prompt
}

func (a *agentV1) Initialize(context.Context, *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return &acpv1.InitializeResponse{ProtocolVersion: 1}, nil
}
func (a *agentV1) NewSession(context.Context, *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return &acpv1.NewSessionResponse{SessionID: "s1"}, nil
}
func (a *agentV1) Cancel(context.Context, *acpv1.CancelNotification) error { return nil }
func (a *agentV1) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	a.mu.Lock()
	a.meta = p.Meta
	a.mu.Unlock()
	update := func(text string) error {
		return a.conn.SessionUpdate(ctx, &acpv1.SessionNotification{SessionID: p.SessionID,
			Update: acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText(text))})
	}
	if err := update("thinking"); err != nil {
		return nil, err
	}
	if _, err := a.conn.RequestPermission(ctx, &acpv1.RequestPermissionRequest{SessionID: p.SessionID,
		ToolCall: acpv1.ToolCallUpdate{ToolCallID: "t1"},
		Options:  []acpv1.PermissionOption{{OptionID: "yes", Name: "Yes", Kind: acpv1.PermissionOptionKindAllowOnce}}}); err != nil {
		return nil, err
	}
	if _, err := a.conn.ReadTextFile(ctx, &acpv1.ReadTextFileRequest{SessionID: p.SessionID, Path: "/f"}); err != nil {
		return nil, err
	}
	return &acpv1.PromptResponse{StopReason: acpv1.StopReasonEndTurn}, update("done")
}

type clientV1 struct{}

func (clientV1) RequestPermission(context.Context, *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return &acpv1.RequestPermissionResponse{Outcome: acpv1.NewRequestPermissionOutcomeSelected("yes")}, nil
}
func (clientV1) SessionUpdate(context.Context, *acpv1.SessionNotification) error { return nil }
func (clientV1) ReadTextFile(context.Context, *acpv1.ReadTextFileRequest) (*acpv1.ReadTextFileResponse, error) {
	return &acpv1.ReadTextFileResponse{Content: "text"}, nil
}

// pairV1 joins a traced v1 agent and client, each with a middleware of
// its own, as two processes have.
func pairV1(t *testing.T, tel *telemetry) (*agentV1, *acpv1.ClientSideConnection) {
	ar, cw := io.Pipe()
	cr, aw := io.Pipe()
	agent := &agentV1{}
	ac := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent { agent.conn = c; return agent },
		aw, ar, acpv1.WithMiddleware(tel.middleware()))
	cc := acpv1.NewClientSideConnection(clientV1{}, cw, cr, acpv1.WithMiddleware(tel.middleware()))
	t.Cleanup(func() { cc.Close(); ac.Close() })
	return agent, cc
}

func TestOneTraceV1(t *testing.T) {
	tel := newTelemetry()
	agent, cc := pairV1(t, tel)
	ctx, root := tel.tp.Tracer("test").Start(context.Background(), "editor")
	if _, err := cc.Initialize(ctx, &acpv1.InitializeRequest{ProtocolVersion: 1,
		ClientCapabilities: &acpv1.ClientCapabilities{Fs: &acpv1.FileSystemCapabilities{ReadTextFile: acpv1.Ptr(true)}}}); err != nil {
		t.Fatal(err)
	}
	prompt := &acpv1.PromptRequest{SessionID: "s1", Prompt: []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")},
		Meta: json.RawMessage(`{"mine":true}`)}
	if _, err := cc.Prompt(ctx, prompt); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.ExtMethod(ctx, "_unknown", nil); err == nil {
		t.Error("an unknown method was answered")
	}
	root.End()
	cc.Close()

	clientPrompt := tel.find(t, "session/prompt", trace.SpanKindClient)
	agentPrompt := tel.find(t, "session/prompt", trace.SpanKindServer)
	childOf(t, clientPrompt, tel.find(t, "editor", trace.SpanKindInternal))
	childOf(t, agentPrompt, clientPrompt)
	for _, method := range []string{"session/request_permission", "fs/read_text_file"} {
		out := tel.find(t, method, trace.SpanKindClient)
		childOf(t, out, agentPrompt)
		childOf(t, tel.find(t, method, trace.SpanKindServer), out)
	}
	if !agentPrompt.Parent().IsRemote() {
		t.Error("the agent's span does not have a remote parent")
	}
	// The updates are events of the turn, on each side.
	for _, s := range []sdktrace.ReadOnlySpan{clientPrompt, agentPrompt} {
		if n := len(s.Events()); n != 2 || s.Events()[0].Name != "session/update" {
			t.Errorf("%s/%v has %d events, want 2 session/update", s.Name(), s.SpanKind(), n)
		}
	}
	if strings.Contains(tel.names(), "session/update") {
		t.Errorf("an update inside a turn has a span: %s", tel.names())
	}
	// The attributes of the RPC conventions.
	for key, want := range map[string]string{"rpc.system.name": "jsonrpc", "rpc.method": "session/prompt",
		"jsonrpc.request.id": "2", "jsonrpc.protocol.version": "2.0"} {
		if got := attr(agentPrompt, key); got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	unknown := tel.find(t, "_unknown", trace.SpanKindServer)
	if unknown.Status().Code != codes.Error || attr(unknown, "rpc.response.status_code") != "-32601" || attr(unknown, "error.type") != "-32601" {
		t.Errorf("the unknown method's span: status %v, attributes %v", unknown.Status(), unknown.Attributes())
	}
	if attr(tel.find(t, "_unknown", trace.SpanKindClient), "rpc.response.status_code") != "-32601" {
		t.Error("the caller's span of the unknown method has no status code")
	}
	// The caller's _meta reached the agent with the trace context added,
	// and the caller's params were left as they were.
	agent.mu.Lock()
	meta := string(agent.meta)
	agent.mu.Unlock()
	if !strings.Contains(meta, `"mine":true`) || !strings.Contains(meta, `"traceparent":"00-`+clientPrompt.SpanContext().TraceID().String()) {
		t.Errorf("the agent got _meta %s", meta)
	}
	if string(prompt.Meta) != `{"mine":true}` {
		t.Errorf("the caller's _meta became %s", prompt.Meta)
	}
	checkMetrics(t, tel)
}

// checkMetrics checks the durations and the requests in flight.
func checkMetrics(t *testing.T, tel *telemetry) {
	var rm metricdata.ResourceMetrics
	if err := tel.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	calls := map[string]uint64{}
	inFlight := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch data := m.Data.(type) {
			case metricdata.Histogram[float64]:
				for _, p := range data.DataPoints {
					method, _ := p.Attributes.Value(attribute.Key("rpc.method"))
					errType, _ := p.Attributes.Value(attribute.Key("error.type"))
					calls[m.Name+" "+method.AsString()+" "+errType.AsString()] += p.Count
				}
			case metricdata.Sum[int64]:
				for _, p := range data.DataPoints {
					inFlight[m.Name] += p.Value
				}
			}
		}
	}
	for key, want := range map[string]uint64{
		"rpc.server.call.duration session/prompt ":             1,
		"rpc.client.call.duration session/prompt ":             1,
		"rpc.client.call.duration fs/read_text_file ":          1,
		"rpc.server.call.duration _unknown -32601":             1,
		"rpc.server.call.duration session/update ":             0, // events, not calls
		"rpc.client.call.duration session/request_permission ": 1,
	} {
		if calls[key] != want {
			t.Errorf("%s: %d calls, want %d (all: %v)", key, calls[key], want, calls)
		}
	}
	if len(inFlight) != 2 || inFlight["rpc.server.active_requests"] != 0 || inFlight["rpc.client.active_requests"] != 0 {
		t.Errorf("requests in flight at the end: %v", inFlight)
	}
}
