package acpv1test

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/rpctest"
)

// testCodec drives the shared tests of the message layer.
var testCodec = rpctest.NewCodec[acpv1.MessageError, acpv1.RequestID]("v1", acpv1.DecodeMessage, func() *acpv1.RequestTracker { return new(acpv1.RequestTracker) },
	"CancelNotification", `{"stopReason":"end_turn"}`)

// TestMessageLayer runs the message layer and request tracker tests of
// internal/rpctest.
func TestMessageLayer(t *testing.T) { rpctest.Run(t, testCodec) }

func TestEncodeMessageNeedsKind(t *testing.T) {
	id := acpv1.RequestID{Value: acpv1.RequestIDStr("a")}
	rpctest.Unencodable(t, []json.Marshaler{
		acpv1.Message{},
		acpv1.Message{ID: &id},
		acpv1.Message{Result: &acpv1.NewSessionResponse{SessionID: "s"}},
		acpv1.Message{ID: &id, Result: json.RawMessage(`{}`), Error: acpv1.NewError(acpv1.ErrorCodeInternalError, "m")},
		acpv1.Message{ID: &acpv1.RequestID{}, Result: json.RawMessage(`{}`)},
	})
}
