package rpctest

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
)

// Kinds decodes a message of each kind the layer tells apart (a request of
// an unknown method, an extension notification, a protocol notification, a
// response without its method, an error response), expects what each
// decodes to and the same message written back, and expects lines that are
// no JSON-RPC message to fail.
func Kinds(t *testing.T, c *Codec) {
	for _, tc := range []struct {
		in    string
		check func(Message) error
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"session/cancel_unknown","params":{"a":[1,2]}}`, func(m Message) error {
			if !m.Request {
				return errors.New("not a request")
			}
			if raw, ok := m.Params.(json.RawMessage); !ok || string(raw) != `{"a":[1,2]}` {
				return errors.New("unknown method's params not kept raw")
			}
			return nil
		}},
		{`{"jsonrpc":"2.0","method":"_zed.dev/file_opened","params":{"path":"/a"}}`, func(m Message) error {
			if !m.Notification {
				return errors.New("not a notification")
			}
			if _, ok := m.Params.(json.RawMessage); !ok {
				return errors.New("extension params not kept raw")
			}
			return nil
		}},
		{`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":7}}`, func(m Message) error {
			if !is(m.Params, "CancelRequestNotification") {
				return errors.New("params not typed")
			}
			return nil
		}},
		{`{"jsonrpc":"2.0","id":"x","result":{}}`, func(m Message) error {
			if _, ok := m.Result.(json.RawMessage); !ok || !m.Response {
				return errors.New("result without method not kept raw")
			}
			return nil
		}},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, func(m Message) error {
			if m.ErrorCode != -32700 || m.ID != "" {
				return errors.New("error response not decoded")
			}
			return nil
		}},
	} {
		m, err := c.Decode([]byte(tc.in), "")
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if err := tc.check(m); err != nil {
			t.Errorf("%s: %v", tc.in, err)
		}
		if ok, diff := conformance.Equal([]byte(tc.in), []byte(m.JSON)); !ok {
			t.Errorf("%s: round trip: %s (%s)", tc.in, diff, m.JSON)
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
		if _, err := c.Decode([]byte(bad), ""); err == nil {
			t.Errorf("%s: decoded without error", bad)
		}
	}
}

// MethodSides checks a package's RequestSide and NotificationSide.
func MethodSides(t *testing.T, requestSide, notificationSide func(method string) string) {
	for _, tc := range []struct {
		side, method string
		notification bool
	}{
		{"agent", "initialize", false},
		{"client", "session/request_permission", false},
		{"agent", "session/cancel", true},
		{"protocol", "$/cancel_request", true},
		{"", "_zed.dev/workspace/buffers", false},
		{"", "initialize", true},
	} {
		side := requestSide(tc.method)
		if tc.notification {
			side = notificationSide(tc.method)
		}
		if side != tc.side {
			t.Errorf("side of %q (notification %v) = %q, want %q", tc.method, tc.notification, side, tc.side)
		}
	}
}
