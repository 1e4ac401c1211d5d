package acpv1test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// The generated encoders: what they write where encoding/json has a say of
// its own (numbers, strings, free-form JSON, map order), the members they
// leave out, and the errors they give instead of bad JSON.

// marshal encodes v both ways and checks that they agree.
func marshal(t *testing.T, v interface {
	json.Marshaler
}) []byte {
	t.Helper()
	out := jsontest.Marshal(t, v)
	jsontest.AssertDirect(t, v, out)
	return out
}

func TestEncodeFloatsAsEncodingJSON(t *testing.T) {
	for _, f := range []float64{0, 0.5, -2.25, 1e-6, 1e-7, 1.5e-7, 123456789, 1e20, 1e21, 1.7976931348623157e308, 5e-324} {
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		out := marshal(t, acpv1.Annotations{Priority: &f})
		if got := string(out); got != `{"priority":`+string(want)+`}` {
			t.Errorf("priority %v: got %s, want the number written %s", f, got, want)
		}
	}
}

func TestEncodeNotANumberFails(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		a := acpv1.Annotations{Priority: &f}
		if _, err := a.MarshalJSON(); err == nil {
			t.Errorf("priority %v encoded without error", f)
		}
		if _, err := json.Marshal(a); err == nil {
			t.Errorf("priority %v encoded by json.Marshal without error", f)
		}
	}
}

func TestEncodeStringsAsEncodingJSON(t *testing.T) {
	for _, s := range []string{"plain", "quote \" backslash \\ slash /", "tab\tnewline\n\x00\x1f", "<a href='x'>&</a>", "\u2028\u2029", "bad \xff utf-8", "é ü 😀"} {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		// The same string; invalid UTF-8 becomes U+FFFD, which encoding/json
		// writes escaped and the generated encoder as is.
		out := marshal(t, acpv1.ContentBlockText{TextContent: acpv1.TextContent{Text: s}})
		if !jsontest.Same(out, []byte(`{"type":"text","text":`+string(want)+`}`)) {
			t.Errorf("text %q: got %s, want the string %s", s, out, want)
		}
	}
}

func TestEncodeRawCompactsAndChecks(t *testing.T) {
	call := acpv1.ToolCall{ToolCallID: "c1", Title: "t", RawInput: json.RawMessage(" { \"b\" : [ 1 , 2 ] ,\n \"a\" : null } ")}
	out := marshal(t, call)
	if !strings.Contains(string(out), `"rawInput":{"b":[1,2],"a":null}`) {
		t.Errorf("rawInput not compacted in place: %s", out)
	}
	call.RawInput = json.RawMessage(`{"a":`)
	if _, err := call.MarshalJSON(); err == nil {
		t.Error("invalid rawInput encoded without error")
	}
	if _, err := json.Marshal(call); err == nil {
		t.Error("invalid rawInput encoded by json.Marshal without error")
	}
}

func TestEncodeListsAndMaps(t *testing.T) {
	// An optional list or map is left out when nil and kept when empty.
	out := marshal(t, acpv1.AuthMethodTerminal{ID: "a", Name: "n"})
	jsontest.AssertSame(t, out, []byte(`{"id":"a","name":"n"}`))
	out = marshal(t, acpv1.AuthMethodTerminal{ID: "a", Name: "n", Args: []string{}, Env: map[string]string{}})
	jsontest.AssertSame(t, out, []byte(`{"id":"a","name":"n","args":[],"env":{}}`))
	// Map keys are written in order, as encoding/json writes them.
	out = marshal(t, acpv1.AuthMethodTerminal{ID: "a", Name: "n", Env: map[string]string{"Z": "1", "A": "2", "M": "3"}})
	if !strings.Contains(string(out), `"env":{"A":"2","M":"3","Z":"1"}`) {
		t.Errorf("env keys not in order: %s", out)
	}
	// A required list that is nil is written empty: the schema has no null for it.
	out = marshal(t, acpv1.Plan{})
	jsontest.AssertBytes(t, out, []byte(`{"entries":[]}`))
	var back acpv1.Plan
	if err := back.UnmarshalJSON(out); err != nil {
		t.Errorf("the encoding of an empty plan does not decode: %v", err)
	}
}

func TestEncodeNullable(t *testing.T) {
	for _, c := range []struct {
		update acpv1.SessionInfoUpdate
		want   string
	}{
		{acpv1.SessionInfoUpdate{}, `{}`},
		{acpv1.SessionInfoUpdate{Title: acpv1.Nullable[string]{Present: true, Null: true}}, `{"title":null}`},
		{acpv1.SessionInfoUpdate{Title: acpv1.Nullable[string]{Present: true, Value: "x"}}, `{"title":"x"}`},
	} {
		jsontest.AssertBytes(t, marshal(t, c.update), []byte(c.want))
	}
}

func TestEncodeUnsetUnionFails(t *testing.T) {
	n := acpv1.SessionNotification{SessionID: "s"}
	if _, err := n.MarshalJSON(); err == nil || !strings.Contains(err.Error(), "SessionUpdate.Value is nil") {
		t.Errorf("a notification without an update: err = %v", err)
	}
	if _, err := json.Marshal(n); err == nil {
		t.Error("json.Marshal of a notification without an update: no error")
	}
}

func TestEncodeTagFirst(t *testing.T) {
	u := acpv1.SessionUpdate{Value: &acpv1.SessionUpdateToolCallUpdate{ToolCallUpdate: acpv1.ToolCallUpdate{ToolCallID: "c1"}}}
	out := marshal(t, u)
	jsontest.AssertBytes(t, out, []byte(`{"sessionUpdate":"tool_call_update","toolCallId":"c1"}`))
	// An unknown variant is written as received, compacted; without Raw, from Tag and the fields.
	other := &acpv1.SessionUpdateOther{Tag: "_acme", Raw: json.RawMessage(`{"x": 1, "sessionUpdate": "_acme"}`)}
	jsontest.AssertBytes(t, marshal(t, acpv1.SessionUpdate{Value: other}), []byte(`{"x":1,"sessionUpdate":"_acme"}`))
	other.Raw = nil
	jsontest.AssertBytes(t, marshal(t, acpv1.SessionUpdate{Value: other}), []byte(`{"sessionUpdate":"_acme"}`))
}

func TestEncodeAppendsToBuffer(t *testing.T) {
	// MarshalJSON hands out a copy: a second call does not overwrite the first result.
	a := marshal(t, acpv1.ContentBlockText{TextContent: acpv1.TextContent{Text: "first"}})
	_ = marshal(t, acpv1.ContentBlockText{TextContent: acpv1.TextContent{Text: "second, and longer"}})
	jsontest.AssertBytes(t, a, []byte(`{"type":"text","text":"first"}`))
}
