package acpv1

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecodeMessage feeds arbitrary lines to DecodeMessage and to a
// RequestTracker: neither may panic, and a message that decodes and
// encodes decodes again from its encoding to the same encoding.
func FuzzDecodeMessage(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`,
		`{"params":{"sessionId":"s"},"method":"session/cancel","jsonrpc":"2.0"}`,
		`{"result":{"sessionId":"s"},"id":"1","jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		`[1]`, `{"jsonrpc":"2.0","id":{}}`, `not json`,
	} {
		f.Add([]byte(seed))
	}
	files, _ := filepath.Glob(filepath.Join(fuzzCorpusDir, "*.json"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var tr RequestTracker
		for _, id := range []RequestID{{Value: RequestIDNumber(1)}, {Value: RequestIDStr("1")}} {
			if err := tr.Track(id, MethodSessionNew); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := tr.Decode(line); err == nil && tr.Len() > 2 {
			t.Fatal("Decode added a tracked request")
		}
		m, err := DecodeMessage(line, MethodSessionNew)
		if err != nil {
			if _, ok := err.(*MessageError); !ok {
				t.Fatalf("error %T is not a *MessageError: %v", err, err)
			}
			return
		}
		out, err := m.MarshalJSON()
		if err != nil {
			return // a response whose id is null (v1) has no ID to write
		}
		again, err := DecodeMessage(out, MethodSessionNew)
		if err != nil {
			t.Fatalf("%s encodes to %s, which does not decode: %v", line, out, err)
		}
		out2, err := again.MarshalJSON()
		if err != nil || string(out2) != string(out) {
			t.Fatalf("%s encodes to %s, then to %s (%v)", line, out, out2, err)
		}
	})
}
