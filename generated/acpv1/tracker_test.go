package acpv1

import "testing"

// TestRequestTrackerNullID tracks a v1 request whose id is null.
func TestRequestTrackerNullID(t *testing.T) {
	var tr RequestTracker
	if err := tr.Track(RequestID{Value: RequestIDNull{}}, MethodNewSession); err != nil {
		t.Fatal(err)
	}
	m, err := tr.Decode([]byte(`{"jsonrpc":"2.0","id":null,"result":{"sessionId":"s"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Result.(*NewSessionResponse); !ok || m.ID != nil || tr.Len() != 0 {
		t.Errorf("response to the null id: %#v, %d tracked", m, tr.Len())
	}
}
