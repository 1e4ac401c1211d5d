package acpv1_test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// TestMethodConstructors encodes what the params and result constructors
// return, and decodes it back as the params or result of its method.
func TestMethodConstructors(t *testing.T) {
	for _, c := range []struct {
		method string
		result bool
		value  interface{ MarshalJSON() ([]byte, error) }
		want   string
	}{
		// Required fields in schema order.
		{acpv1.MethodWriteTextFile, false, acpv1.NewWriteTextFileRequest("s1", "/a.go", "package a\n"),
			`{"sessionId":"s1","path":"/a.go","content":"package a\n"}`},
		{acpv1.MethodTerminalOutput, true, acpv1.NewTerminalOutputResponse("ok", false),
			`{"output":"ok","truncated":false}`},
		// No required field.
		{acpv1.MethodLogout, true, acpv1.NewLogoutResponse(), `{}`},
		// A union: its shared required fields, then the variant (here the
		// variant without tag).
		{acpv1.MethodSetSessionConfigOption, false, acpv1.NewSetSessionConfigOptionRequest("s1", "model",
			&acpv1.SetSessionConfigOptionRequestValueID{Value: "fast"}),
			`{"value":"fast","sessionId":"s1","configId":"model"}`}, // the variant first, as the tag is written first
		{acpv1.MethodCreateElicitation, true, acpv1.NewCreateElicitationResponse(&acpv1.CreateElicitationResponseDecline{}),
			`{"action":"decline"}`},
		{acpv1.MethodSessionUpdate, false, acpv1.NewSessionNotification("s1", acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText("hi"))),
			`{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}`},
	} {
		got, err := c.value.MarshalJSON()
		if err != nil {
			t.Errorf("%s: %v", c.method, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("%s: %s, want %s", c.method, got, c.want)
		}
		var back any
		switch {
		case c.result:
			back = acpv1.NewResult(c.method)
		case c.method == acpv1.MethodSessionUpdate:
			back = acpv1.NewNotificationParams(c.method)
		default:
			back = acpv1.NewRequestParams(c.method)
		}
		v, ok := back.(interface {
			UnmarshalJSON([]byte) error
			MarshalJSON() ([]byte, error)
		})
		if !ok {
			t.Errorf("%s: no params or result type (%T)", c.method, back)
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
