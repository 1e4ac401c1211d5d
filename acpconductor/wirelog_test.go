package acpconductor

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// TestWireLog: every hop's messages are recorded, in and out, with the
// hop's name and the message's bytes.
func TestWireLog(t *testing.T) {
	var buf strings.Builder
	lw := &lockedWriter{w: &buf}
	p, done, _ := newRawPeer(t, []string{goProxy(t, ""), helper(t, "agent", "echo")}, &Options{Stderr: io.Discard, WireLog: lw})
	p.send(`{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":1}}`)
	p.read()
	p.w.(io.Closer).Close()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the chain did not end")
	}
	type record struct {
		Conn  int             `json:"conn"`
		Hop   string          `json:"hop"`
		Dir   string          `json:"dir"`
		Bytes int             `json:"bytes"`
		Msg   json.RawMessage `json:"msg"`
	}
	seen := map[string]string{}
	lw.mu.Lock()
	log := buf.String()
	lw.mu.Unlock()
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		var r record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("a record that is not JSON: %s", line)
		}
		if r.Bytes != len(r.Msg) {
			t.Errorf("bytes %d for a message of %d: %s", r.Bytes, len(r.Msg), line)
		}
		hop := r.Hop
		if i := strings.Index(hop, " ("); i > 0 {
			hop = hop[:i]
		}
		seen[hop+" "+r.Dir] += string(r.Msg) + "\n"
	}
	for key, want := range map[string]string{
		"client in":   `{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":1}}`,
		"proxy 1 out": `{"jsonrpc":"2.0","id":1,"method":"proxy/initialize","params":{"protocolVersion":1}}`,
		"proxy 1 in":  `{"jsonrpc":"2.0","id":1,"method":"proxy/successor","params":{"method":"initialize","params":{"protocolVersion":1}}}`,
		"agent out":   `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`,
		"agent in":    `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}`,
		"client out":  `{"jsonrpc":"2.0","id":"i","result":{"protocolVersion":1}}`,
	} {
		if !strings.Contains(seen[key], want+"\n") {
			t.Errorf("%s: got\n%s\nwant %s", key, seen[key], want)
		}
	}
}
