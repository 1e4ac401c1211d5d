package acpv1test

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/jsontest"
	"github.com/acpgen/acpgen/internal/rpctest"
)

func TestMethodSides(t *testing.T) { rpctest.MethodSides(t, acpv1.RequestSide, acpv1.NotificationSide) }

func TestEncodeMessage(t *testing.T) {
	id := acpv1.RequestID{Value: acpv1.RequestIDNumber(3)}
	for _, tc := range []struct {
		m    acpv1.Message
		want string
	}{
		{acpv1.Message{ID: &id, Method: "session/cancel", Params: &acpv1.CancelNotification{SessionID: "s"}}, `{"jsonrpc":"2.0","id":3,"method":"session/cancel","params":{"sessionId":"s"}}`},
		{acpv1.Message{Method: "session/cancel"}, `{"jsonrpc":"2.0","method":"session/cancel"}`},
		{acpv1.Message{Method: "_x", Params: map[string]int{"b": 1, "a": 2}}, `{"jsonrpc":"2.0","method":"_x","params":{"a":2,"b":1}}`},
		{acpv1.Message{Method: "_x", Params: json.RawMessage(` [ 1 ] `)}, `{"jsonrpc":"2.0","method":"_x","params":[1]}`},
		{acpv1.Message{Method: "session/cancel", Params: (*acpv1.CancelNotification)(nil)}, `{"jsonrpc":"2.0","method":"session/cancel","params":null}`},
		{acpv1.Message{ID: &id, Result: json.RawMessage("null")}, `{"jsonrpc":"2.0","id":3,"result":null}`},
		{acpv1.Message{ID: &id, Result: (*acpv1.NewSessionResponse)(nil)}, `{"jsonrpc":"2.0","id":3,"result":null}`},
		{acpv1.Message{ID: &acpv1.RequestID{Value: acpv1.RequestIDNull{}}, Result: &acpv1.NewSessionResponse{SessionID: "s"}}, `{"jsonrpc":"2.0","id":null,"result":{"sessionId":"s"}}`},
		{acpv1.Message{Error: &acpv1.Error{Code: acpv1.ErrorCodeParseError, Message: "m"}}, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}`},
		{acpv1.Message{ID: &id, Error: &acpv1.Error{Code: acpv1.ErrorCodeParseError, Message: "m"}}, `{"jsonrpc":"2.0","id":3,"error":{"code":-32700,"message":"m"}}`},
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
	bad := acpv1.Message{Method: "_x", Params: json.RawMessage(`{`)}
	if _, err := bad.MarshalJSON(); err == nil {
		t.Error("invalid raw params encoded without error")
	}
}

func TestErrorIsGoError(t *testing.T) {
	rpctest.ErrorIsGoError(t, acpv1.NewError(acpv1.ErrorCodeMethodNotFound, "Method not found"))
}
