package acpv2test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/conformance"
)

// TestMethodConstructors encodes what the params and result constructors
// return, and decodes it back as the params or result of its method.
func TestMethodConstructors(t *testing.T) {
	conformance.RunConstructed(t, acpv2.NewRequestParams, acpv2.NewNotificationParams, acpv2.NewResult, []conformance.Constructed{
		// Required fields in schema order; the empty default object that
		// the constructor fills in is left out, as a TypeScript agent that
		// never sets it writes the result.
		{Method: acpv2.MethodInitialize, Kind: "result", Value: acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "agent", Version: "1.0"}),
			Want: `{"protocolVersion":2,"info":{"name":"agent","version":"1.0"}}`},
		{Method: acpv2.MethodCancelToolCall, Kind: "request", Value: acpv2.NewCancelToolCallRequest("s1", "call-1"),
			Want: `{"sessionId":"s1","toolCallId":"call-1"}`},
		{Method: acpv2.MethodLogoutAuth, Kind: "result", Value: acpv2.NewLogoutAuthResponse(), Want: `{}`},
		{Method: acpv2.MethodUpdateSession, Kind: "notification", Value: acpv2.NewUpdateSessionNotification("s1",
			acpv2.NewSessionUpdateAgentMessageChunk("m1", acpv2.NewContentBlockText("hi"))),
			Want: `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"hi"}}}`},
		// A union: its shared required fields, then the variant.
		{Method: acpv2.MethodSetSessionConfigOption, Kind: "request", Value: acpv2.NewSetSessionConfigOptionRequest("s1", "fast",
			&acpv2.SetSessionConfigOptionRequestBoolean{Value: true}),
			Want: `{"type":"boolean","value":true,"sessionId":"s1","configId":"fast"}`},
	})
}
