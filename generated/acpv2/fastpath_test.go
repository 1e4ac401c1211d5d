package acpv2

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/internal/rpctest"
)

// TestPayloadsDecodeFast checks that decodeValue decodes every params and
// result type of the message layer with its generated decoder, not with
// encoding/json; a free-form payload (json.RawMessage) has no schema to
// decode by.
func TestPayloadsDecodeFast(t *testing.T) {
	rpctest.FastPath(t, func(v any) bool {
		if _, ok := v.(*json.RawMessage); ok {
			return true
		}
		var generated bool
		_ = withDecoder([]byte(`{}`), func(d *decoder) error {
			generated, _ = decodeGenerated(d, v)
			return nil
		})
		return generated
	}, NewRequestParams, NewNotificationParams, NewResult)
}
