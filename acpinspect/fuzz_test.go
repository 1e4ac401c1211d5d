package acpinspect

import (
	"strings"
	"testing"
	"time"
)

// FuzzInspector feeds a clean conversation's messages, then the fuzzed
// line from either side: the Inspector must judge it without panicking,
// and the page's views must still be made.
func FuzzInspector(f *testing.F) {
	for _, line := range strings.Split(strings.TrimSpace(goodStart), "\n") {
		f.Add(line[2:], line[0] == 'a')
	}
	f.Add(`{"jsonrpc":"2.0","id":{},"result":[]}`, true)
	f.Add(`{"jsonrpc":"2.0","method":5}`, false)
	f.Add(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"state_update","state":"idle"}}}`, true)
	f.Fuzz(func(t *testing.T, line string, fromAgent bool) {
		in := NewInspector()
		feed(t, in, goodStart)
		from := FromClient
		if fromAgent {
			from = FromAgent
		}
		in.Record(Frame{Conn: 1, Time: time.Now(), From: from, Data: []byte(line)})
		e, _, ok := in.Entry(int64(in.Len()))
		if !ok || e.Verdict == "" {
			t.Fatalf("no verdict for %q", line)
		}
		in.Sessions()
		in.Stats()
		in.AppendJSONL(nil)
	})
}
