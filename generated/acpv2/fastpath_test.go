package acpv2

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/internal/rpctest"
)

// TestPayloadsDecodeFast checks that every params and result type of the
// message layer has the generated decoder that decodeValue looks for; a
// free-form payload (json.RawMessage) has no schema to decode by.
func TestPayloadsDecodeFast(t *testing.T) {
	rpctest.FastPath(t, func(v any) bool {
		switch v.(type) {
		case decodable, *json.RawMessage:
			return true
		}
		return false
	}, NewRequestParams, NewNotificationParams, NewResult)
}
