package acpclient

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestWatchV1: each line the client connection would drop is reported with
// its method and reason, the others are not, and every byte passes.
func TestWatchV1(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c"}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":42}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"content":{"type":"text","text":"x"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"fine"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"future_kind"}}}`,
		`{"jsonrpc":"2.0","method":"_vendor/ping","params":{}}`,
		`{"jsonrpc":"2.0","method":"no/such","params":{}}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"session/request_permission","params":{}}`,
		`not json`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"pad":"` + strings.Repeat("x", 300) + `"}}`,
		``,
	}, "\n")
	var drops []Drop
	r := WatchV1(iotest.OneByteReader(strings.NewReader(in)), 256, func(d Drop) { drops = append(drops, d) })
	out, err := io.ReadAll(r)
	if err != nil || string(out) != in {
		t.Fatalf("the lines did not pass unchanged: %v", err)
	}
	want := []struct{ method, reason string }{
		{"session/update", "title"},
		{"session/update", "text"},
		{"session/update", "sessionUpdate"},
		{"session/update", "sessionId"},
		{"no/such", "no notification"},
		{"", "not JSON"},
		{"", "over the limit of 256"},
	}
	if len(drops) != len(want) {
		t.Fatalf("%d drops, want %d: %+v", len(drops), len(want), drops)
	}
	for i, w := range want {
		if drops[i].Method != w.method || !strings.Contains(drops[i].Reason, w.reason) {
			t.Errorf("drop %d: %+v, want %s and a reason naming %q", i, drops[i], w.method, w.reason)
		}
	}
}
