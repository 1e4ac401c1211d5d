package acpv1

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
	"github.com/acpgen/acpgen/internal/jsontest"
)

func TestDecodeMessageKinds(t *testing.T) {
	for _, tc := range []struct {
		in, method string
		check      func(*Message) error
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"session/cancel_unknown","params":{"a":[1,2]}}`, "", func(m *Message) error {
			if !m.IsRequest() {
				return errors.New("not a request")
			}
			if raw, ok := m.Params.(json.RawMessage); !ok || string(raw) != `{"a":[1,2]}` {
				return errors.New("unknown method's params not kept raw")
			}
			return nil
		}},
		{`{"jsonrpc":"2.0","method":"_zed.dev/file_opened","params":{"path":"/a"}}`, "", func(m *Message) error {
			if !m.IsNotification() {
				return errors.New("not a notification")
			}
			if _, ok := m.Params.(json.RawMessage); !ok {
				return errors.New("extension params not kept raw")
			}
			return nil
		}},
		{`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":7}}`, "", func(m *Message) error {
			if _, ok := m.Params.(*CancelRequestNotification); !ok {
				return errors.New("params not typed")
			}
			return nil
		}},
		{`{"jsonrpc":"2.0","id":"x","result":{}}`, "", func(m *Message) error {
			if _, ok := m.Result.(json.RawMessage); !ok || !m.IsResponse() {
				return errors.New("result without method not kept raw")
			}
			return nil
		}},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, "", func(m *Message) error {
			if m.Error == nil || m.Error.Code != ErrorCodeParseError || m.ID != nil {
				return errors.New("error response not decoded")
			}
			return nil
		}},
	} {
		m, err := DecodeMessage([]byte(tc.in), tc.method)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if err := tc.check(m); err != nil {
			t.Errorf("%s: %v", tc.in, err)
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Errorf("%s: encode: %v", tc.in, err)
			continue
		}
		if ok, diff := conformance.Equal([]byte(tc.in), out); !ok {
			t.Errorf("%s: round trip: %s (%s)", tc.in, diff, out)
		}
	}
	for _, bad := range []string{
		`{"id":1,"method":"x"}`,
		`{"jsonrpc":"1.0","id":1,"method":"x"}`,
		`{"jsonrpc":"2.0","id":1}`,
		`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":1,"method":""}`,
		`[1]`,
	} {
		if _, err := DecodeMessage([]byte(bad), ""); err == nil {
			t.Errorf("%s: decoded without error", bad)
		}
	}
}

func TestMethodSides(t *testing.T) {
	for _, tc := range []struct {
		side, method string
		notification bool
	}{
		{"agent", MethodInitialize, false},
		{"client", MethodSessionRequestPermission, false},
		{"agent", MethodSessionCancel, true},
		{"protocol", MethodCancelRequest, true},
		{"", "_zed.dev/workspace/buffers", false},
		{"", MethodInitialize, true},
	} {
		side := RequestSide(tc.method)
		if tc.notification {
			side = NotificationSide(tc.method)
		}
		if side != tc.side {
			t.Errorf("side of %q (notification %v) = %q, want %q", tc.method, tc.notification, side, tc.side)
		}
	}
}

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
	var err error = fmt.Errorf("prompt: %w", NewError(ErrorCodeMethodNotFound, "Method not found"))
	var rpcErr *Error
	if !errors.As(err, &rpcErr) {
		t.Fatalf("errors.As did not find *Error in %v", err)
	}
	if rpcErr.Code != ErrorCodeMethodNotFound || rpcErr.Message != "Method not found" {
		t.Errorf("errors.As found %+v", rpcErr)
	}
	if got, want := err.Error(), "prompt: json-rpc error -32601: Method not found"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
