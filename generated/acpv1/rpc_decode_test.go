package acpv1

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/acpgen/acpgen/internal/rpctest"
)

// testCodec drives the shared tests of the message layer.
var testCodec = &rpctest.Codec{
	Version:      "v1",
	Decode:       func(data []byte, method string) (rpctest.Message, error) { return view(DecodeMessage(data, method)) },
	NewTracker:   func() rpctest.Tracker { return &testTracker{} },
	MessageError: messageError,
	Cancel:       "CancelNotification",
	PromptResult: `{"stopReason":"end_turn"}`,
}

// view shows a decoded message to the shared tests.
func view(m *Message, err error) (rpctest.Message, error) {
	if err != nil {
		return rpctest.Message{}, err
	}
	out, err := m.MarshalJSON()
	v := rpctest.Message{JSON: string(out), Request: m.IsRequest(), Notification: m.IsNotification(), Response: m.IsResponse(),
		Params: m.Params, Result: m.Result}
	if m.ID != nil {
		v.ID = jsonOf(m.ID)
	}
	if m.Error != nil {
		v.ErrorCode = int(m.Error.Code)
	}
	return v, err
}

func messageError(err error) (rpctest.MessageError, bool) {
	var me *MessageError
	if !errors.As(err, &me) {
		return rpctest.MessageError{}, false
	}
	v := rpctest.MessageError{Code: int(me.Code), Method: me.Method}
	if me.ID != nil {
		v.ID = jsonOf(me.ID)
	}
	return v, true
}

func jsonOf(v json.Marshaler) string {
	b, err := v.MarshalJSON()
	if err != nil {
		return "!" + err.Error()
	}
	return string(b)
}

// testTracker is a RequestTracker with ids as JSON.
type testTracker struct{ RequestTracker }

func requestID(id string) (rid RequestID) {
	if err := rid.UnmarshalJSON([]byte(id)); err != nil {
		panic(err)
	}
	return rid
}

func (t *testTracker) Track(id, method string) error {
	return t.RequestTracker.Track(requestID(id), method)
}
func (t *testTracker) Forget(id string) bool { return t.RequestTracker.Forget(requestID(id)) }
func (t *testTracker) Decode(data []byte) (rpctest.Message, error) {
	return view(t.RequestTracker.Decode(data))
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
