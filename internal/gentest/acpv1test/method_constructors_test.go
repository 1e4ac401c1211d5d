package acpv1test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/conformance"
)

// TestMethodConstructors encodes what the params and result constructors
// return, and decodes it back as the params or result of its method.
func TestMethodConstructors(t *testing.T) {
	conformance.RunConstructed(t, acpv1.NewRequestParams, acpv1.NewNotificationParams, acpv1.NewResult, []conformance.Constructed{
		// Required fields in schema order.
		{Method: acpv1.MethodWriteTextFile, Kind: "request", Value: acpv1.NewWriteTextFileRequest("s1", "/a.go", "package a\n"),
			Want: `{"sessionId":"s1","path":"/a.go","content":"package a\n"}`},
		{Method: acpv1.MethodTerminalOutput, Kind: "result", Value: acpv1.NewTerminalOutputResponse("ok", false),
			Want: `{"output":"ok","truncated":false}`},
		// No required field.
		{Method: acpv1.MethodLogout, Kind: "result", Value: acpv1.NewLogoutResponse(), Want: `{}`},
		// A union: its shared required fields, then the variant (here the
		// variant without tag).
		{Method: acpv1.MethodSetSessionConfigOption, Kind: "request", Value: acpv1.NewSetSessionConfigOptionRequest("s1", "model",
			&acpv1.SetSessionConfigOptionRequestValueID{Value: "fast"}),
			Want: `{"value":"fast","sessionId":"s1","configId":"model"}`}, // the variant first, as the tag is written first
		{Method: acpv1.MethodCreateElicitation, Kind: "result", Value: acpv1.NewCreateElicitationResponse(&acpv1.CreateElicitationResponseDecline{}),
			Want: `{"action":"decline"}`},
		{Method: acpv1.MethodSessionUpdate, Kind: "notification", Value: acpv1.NewSessionNotification("s1", acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText("hi"))),
			Want: `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}`},
	})
}
