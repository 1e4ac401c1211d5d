package acpv2_test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// TestMethodConstructors encodes what the params and result constructors
// return, and decodes it back as the params or result of its method.
func TestMethodConstructors(t *testing.T) {
	for _, c := range []struct {
		method string
		kind   string // request, notification or result
		value  interface{ MarshalJSON() ([]byte, error) }
		want   string
	}{
		// Required fields in schema order; the empty default object that
		// the constructor fills in is left out, as a TypeScript agent that
		// never sets it writes the result.
		{acpv2.MethodInitialize, "result", acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "agent", Version: "1.0"}),
			`{"protocolVersion":2,"info":{"name":"agent","version":"1.0"}}`},
		{acpv2.MethodCancelToolCall, "request", acpv2.NewCancelToolCallRequest("s1", "call-1"),
			`{"sessionId":"s1","toolCallId":"call-1"}`},
		{acpv2.MethodLogoutAuth, "result", acpv2.NewLogoutAuthResponse(), `{}`},
		{acpv2.MethodUpdateSession, "notification", acpv2.NewUpdateSessionNotification("s1",
			acpv2.NewSessionUpdateAgentMessageChunk("m1", acpv2.NewContentBlockText("hi"))),
			`{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"hi"}}}`},
		// A union: its shared required fields, then the variant.
		{acpv2.MethodSetSessionConfigOption, "request", acpv2.NewSetSessionConfigOptionRequest("s1", "fast",
			&acpv2.SetSessionConfigOptionRequestBoolean{Value: true}),
			`{"type":"boolean","value":true,"sessionId":"s1","configId":"fast"}`},
	} {
		got, err := c.value.MarshalJSON()
		if err != nil {
			t.Errorf("%s: %v", c.method, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("%s: %s, want %s", c.method, got, c.want)
		}
		back := map[string]func(string) any{
			"request": acpv2.NewRequestParams, "notification": acpv2.NewNotificationParams, "result": acpv2.NewResult,
		}[c.kind](c.method)
		v, ok := back.(interface {
			UnmarshalJSON([]byte) error
			MarshalJSON() ([]byte, error)
		})
		if !ok {
			t.Errorf("%s: no %s type (%T)", c.method, c.kind, back)
			continue
		}
		if err := v.UnmarshalJSON(got); err != nil {
			t.Errorf("%s: decoding %s: %v", c.method, got, err)
			continue
		}
		if again, _ := v.MarshalJSON(); string(again) != c.want {
			t.Errorf("%s: decoded and encoded again: %s, want %s", c.method, again, c.want)
		}
	}
}
