package acpv1

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/internal/jsontest"
	"github.com/acpgen/acpgen/internal/rpctest"
)

func TestMethodSides(t *testing.T) { rpctest.MethodSides(t, RequestSide, NotificationSide) }

func TestEncodeMessage(t *testing.T) {
	id := RequestID{Value: RequestIDNumber(3)}
	for _, tc := range []struct {
		m    Message
		want string
	}{
		{Message{ID: &id, Method: "session/cancel", Params: &CancelNotification{SessionID: "s"}}, `{"jsonrpc":"2.0","id":3,"method":"session/cancel","params":{"sessionId":"s"}}`},
		{Message{Method: "session/cancel"}, `{"jsonrpc":"2.0","method":"session/cancel"}`},
		{Message{Method: "_x", Params: map[string]int{"b": 1, "a": 2}}, `{"jsonrpc":"2.0","method":"_x","params":{"a":2,"b":1}}`},
		{Message{Method: "_x", Params: json.RawMessage(` [ 1 ] `)}, `{"jsonrpc":"2.0","method":"_x","params":[1]}`},
		{Message{Method: "session/cancel", Params: (*CancelNotification)(nil)}, `{"jsonrpc":"2.0","method":"session/cancel","params":null}`},
		{Message{ID: &id, Result: json.RawMessage("null")}, `{"jsonrpc":"2.0","id":3,"result":null}`},
		{Message{ID: &id, Result: (*NewSessionResponse)(nil)}, `{"jsonrpc":"2.0","id":3,"result":null}`},
		{Message{ID: &RequestID{Value: RequestIDNull{}}, Result: &NewSessionResponse{SessionID: "s"}}, `{"jsonrpc":"2.0","id":null,"result":{"sessionId":"s"}}`},
		{Message{Error: &Error{Code: ErrorCodeParseError, Message: "m"}}, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}`},
		{Message{ID: &id, Error: &Error{Code: ErrorCodeParseError, Message: "m"}}, `{"jsonrpc":"2.0","id":3,"error":{"code":-32700,"message":"m"}}`},
	} {
		out, err := json.Marshal(tc.m)
		if err != nil {
			t.Errorf("%s: %v", tc.want, err)
			continue
		}
		if string(out) != tc.want {
			t.Errorf("got  %s\nwant %s", out, tc.want)
		}
		jsontest.AssertDirect(t, tc.m, out)
	}
	bad := Message{Method: "_x", Params: json.RawMessage(`{`)}
	if _, err := bad.MarshalJSON(); err == nil {
		t.Error("invalid raw params encoded without error")
	}
}

func TestErrorIsGoError(t *testing.T) {
	rpctest.ErrorIsGoError(t, NewError(ErrorCodeMethodNotFound, "Method not found"))
}
