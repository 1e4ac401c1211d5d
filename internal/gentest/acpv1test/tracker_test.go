package acpv1test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// TestRequestTrackerNullID tracks a v1 request whose id is null.
func TestRequestTrackerNullID(t *testing.T) {
	var tr acpv1.RequestTracker
	if err := tr.Track(acpv1.RequestID{Value: acpv1.RequestIDNull{}}, acpv1.MethodNewSession); err != nil {
		t.Fatal(err)
	}
	m, err := tr.Decode([]byte(`{"jsonrpc":"2.0","id":null,"result":{"sessionId":"s"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Result.(*acpv1.NewSessionResponse); !ok || m.ID != nil || tr.Len() != 0 {
		t.Errorf("response to the null id: %#v, %d tracked", m, tr.Len())
	}
}
