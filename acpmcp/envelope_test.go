//go:build unstable_mcp_over_acp || unstable

package acpmcp

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
)

func TestParseOutcome(t *testing.T) {
	tests := []struct {
		in, result, code, meta string
		bad                    bool
	}{
		{in: `{"result":{"a":1}}`, result: `{"a":1}`},
		{in: `{"result":null}`, result: `null`},
		{in: `{"result":1,"error":{"code":1,"message":"m"}}`, result: `1`},
		{in: `{"error":{"code":-32601,"message":"m","data":[1]}}`, code: "-32601"},
		{in: `{"error":{"code":5.0,"message":"m"}}`, code: "5"},
		{in: `{"result":{},"_meta":{"k":1}}`, result: `{}`, meta: `{"k":1}`},
		{in: `{"result":{},"_meta":[1]}`, result: `{}`},
		{in: `{"error":{"code":1.5,"message":"m"}}`, bad: true},
		{in: `{"error":{"code":"1","message":"m"}}`, bad: true},
		{in: `{"error":{"code":1,"message":2}}`, bad: true},
		{in: `{"error":null}`, bad: true},
		{in: `{}`, bad: true},
		{in: `[]`, bad: true},
		{in: `null`, bad: true},
		{in: `{"result"`, bad: true},
	}
	for _, tt := range tests {
		out, err := ParseOutcome([]byte(tt.in))
		if tt.bad {
			if !errors.Is(err, ErrInvalidCarrier) {
				t.Errorf("ParseOutcome(%s) = %+v, %v; want ErrInvalidCarrier", tt.in, out, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseOutcome(%s): %v", tt.in, err)
			continue
		}
		if string(out.Result) != tt.result || string(out.Meta) != tt.meta {
			t.Errorf("ParseOutcome(%s) = result %s meta %s, want %s %s", tt.in, out.Result, out.Meta, tt.result, tt.meta)
		}
		if tt.code != "" && (out.Error == nil || json.Number(tt.code).String() != itoa(out.Error.Code)) {
			t.Errorf("ParseOutcome(%s) error = %+v, want code %s", tt.in, out.Error, tt.code)
		}
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestWithRequestMeta(t *testing.T) {
	got, err := WithRequestMeta(json.RawMessage(`{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"mine","k":1}}`),
		CallerMeta{ClientInfo: map[string]string{"name": "a"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"a"},"io.modelcontextprotocol/protocolVersion":"mine","k":1},"name":"x"}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, err := WithRequestMeta(json.RawMessage(`[1]`), CallerMeta{}); err == nil {
		t.Error("array params were accepted")
	}
}

// TestInnerMetaChecks: the provider answers bad inner metadata with inner
// MCP errors, as the binding says, without calling the handler.
func TestInnerMetaChecks(t *testing.T) {
	p := NewProvider(nil)
	called := false
	reg, _ := p.Register("s", func(context.Context, *Request) (Outcome, error) {
		called = true
		return Outcome{Result: json.RawMessage(`{}`)}, nil
	}, nil)
	tests := []struct {
		params string
		code   int64
	}{
		{``, -32602},
		{`{"_meta":{"io.modelcontextprotocol/protocolVersion":1,"io.modelcontextprotocol/clientCapabilities":{}}}`, -32602},
		{`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}`, -32022},
		{`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, -32602},
		{`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]}}`, -32602},
	}
	for _, tt := range tests {
		out, err := p.Serve(context.Background(), Message{ServerID: reg.ServerID(), RequestID: "1", Method: "m", Params: json.RawMessage(tt.params)})
		if err != nil || out.Error == nil || out.Error.Code != tt.code {
			t.Errorf("params %s: %+v %v, want inner error %d", tt.params, out.Error, err, tt.code)
		}
	}
	if called {
		t.Error("the handler was called with bad metadata")
	}
	good := `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := p.Serve(ctx, Message{ServerID: reg.ServerID(), RequestID: "1", Params: json.RawMessage(good)})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeRequestCancelled || called {
		t.Errorf("a request cancelled before it starts: %v (handler called %v)", err, called)
	}
}

// FuzzEnvelope decodes arbitrary carriers and params: never a panic, and a
// carrier that decodes encodes back to one that decodes the same.
func FuzzEnvelope(f *testing.F) {
	for _, s := range []string{`{"result":{}}`, `{"error":{"code":1,"message":"m","data":null}}`, `{"result":null,"_meta":{}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, `[]`, `{"error":{"code":1e400,"message":""}}`} {
		f.Add([]byte(s))
	}
	p := NewProvider(nil)
	reg, _ := p.Register("s", func(_ context.Context, r *Request) (Outcome, error) {
		return Outcome{Result: json.RawMessage(`{}`)}, nil
	}, nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		if out, err := ParseOutcome(data); err == nil {
			b, err := out.MarshalCarrier()
			if err != nil {
				if out.Result == nil || json.Valid(out.Result) {
					t.Fatalf("re-encoding %s: %v", data, err)
				}
				return
			}
			again, err := ParseOutcome(b)
			if err != nil || string(again.Result) != string(compact(out.Result)) || (again.Error == nil) != (out.Error == nil) {
				t.Fatalf("%s re-encoded as %s decodes differently: %+v %v", data, b, again, err)
			}
		}
		_, _ = WithRequestMeta(data, CallerMeta{})
		if _, err := p.Serve(context.Background(), Message{ServerID: reg.ServerID(), RequestID: "r", Params: data}); err != nil {
			t.Fatalf("Serve with params %s: %v", data, err)
		}
	})
}

func compact(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	b, _ := json.Marshal(raw)
	return b
}
