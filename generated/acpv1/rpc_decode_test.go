package acpv1

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/internal/rpctest"
)

// testCodec drives the shared tests of the message layer.
var testCodec = rpctest.NewCodec[MessageError, RequestID]("v1", DecodeMessage, func() *RequestTracker { return new(RequestTracker) },
	"CancelNotification", `{"stopReason":"end_turn"}`)

// TestMessageLayer runs the message layer and request tracker tests of
// internal/rpctest.
func TestMessageLayer(t *testing.T) { rpctest.Run(t, testCodec) }

func TestEncodeMessageNeedsKind(t *testing.T) {
	id := RequestID{Value: RequestIDStr("a")}
	rpctest.Unencodable(t, []json.Marshaler{
		Message{},
		Message{ID: &id},
		Message{Result: &NewSessionResponse{SessionID: "s"}},
		Message{ID: &id, Result: json.RawMessage(`{}`), Error: NewError(ErrorCodeInternalError, "m")},
		Message{ID: &RequestID{}, Result: json.RawMessage(`{}`)},
	})
}
