package acpv1

import (
	"testing"

	"github.com/acpgen/acpgen/internal/rpctest"
)

// TestPayloadsEncodeFast checks that the message layer writes every params
// and result type with its generated encoder, not with encoding/json.
func TestPayloadsEncodeFast(t *testing.T) {
	rpctest.EncodeFastPath(t, func(v any) bool {
		_, ok, _ := appendGenerated(nil, v)
		return ok
	}, NewRequestParams, NewNotificationParams, NewResult)
}
