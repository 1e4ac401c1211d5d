package acpv2test

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/rpctest"
)

// testCodec drives the shared tests of the message layer.
var testCodec = rpctest.NewCodec[acpv2.MessageError, acpv2.RequestID]("v2", acpv2.DecodeMessage, func() *acpv2.RequestTracker { return new(acpv2.RequestTracker) },
	"CancelSessionNotification", `{"messageId":"m"}`)

// TestMessageLayer runs the message layer and request tracker tests of
// internal/rpctest.
func TestMessageLayer(t *testing.T) { rpctest.Run(t, testCodec) }

func TestEncodeMessageNeedsKind(t *testing.T) {
	id := acpv2.RequestID{Value: acpv2.RequestIDStr("a")}
	rpctest.Unencodable(t, []json.Marshaler{
		acpv2.Message{},
		acpv2.Message{ID: &id},
		acpv2.Message{Result: &acpv2.NewSessionResponse{SessionID: "s"}},
		acpv2.Message{ID: &id, Result: json.RawMessage(`{}`), Error: acpv2.NewError(acpv2.ErrorCodeInternalError, "m")},
		acpv2.Message{ID: &acpv2.RequestID{}, Result: json.RawMessage(`{}`)},
	})
}
