package acpv1

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/acpgen/acpgen/internal/rpctest"
)

// testCodec drives the shared tests of the message layer.
var testCodec = &rpctest.Codec{
	Version: "v1",
	Decode: func(data []byte, method string) (rpctest.Message, error) {
		return rpctest.View(DecodeMessage(data, method))
	},
	NewTracker: func() rpctest.Tracker {
		return rpctest.WrapTracker[RequestID, *Message](new(RequestTracker), func(id string) (rid RequestID) {
			if err := rid.UnmarshalJSON([]byte(id)); err != nil {
				panic(err)
			}
			return rid
		})
	},
	MessageError: func(err error) (rpctest.MessageError, bool) {
		var me *MessageError
		errors.As(err, &me)
		return rpctest.ViewError(me)
	},
	Cancel:       "CancelNotification",
	PromptResult: `{"stopReason":"end_turn"}`,
}

func TestDecodeMessageMemberOrder(t *testing.T) { rpctest.MemberOrder(t, testCodec) }
func TestDecodeMessageOrderTypes(t *testing.T)  { rpctest.OrderTypes(t, testCodec) }
func TestDecodeMessageErrors(t *testing.T)      { rpctest.Errors(t, testCodec) }

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
