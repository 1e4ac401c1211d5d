package rpctest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
)

// fuzzMethod is the method the fuzz target's requests are tracked with.
const fuzzMethod = "session/new"

// AddFuzzSeeds adds the seeds of a fuzz target of DecodeMessage: a few
// lines, valid and not, and every message of the conformance corpus of
// version when the checkout has it.
func AddFuzzSeeds(f *testing.F, version string) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`,
		`{"params":{"sessionId":"s"},"method":"session/cancel","jsonrpc":"2.0"}`,
		`{"result":{"sessionId":"s"},"id":"1","jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		`[1]`, `{"jsonrpc":"2.0","id":{}}`, `not json`,
	} {
		f.Add([]byte(seed))
	}
	files, _ := filepath.Glob(filepath.Join(conformance.Dir, version, "*.json"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
}

// FuzzDecodeMessage feeds line to a RequestTracker of c and to decode, a
// package's DecodeMessage: neither may panic, the tracker adds nothing
// when it decodes a line, an error of decode is a *MessageError, and a
// message that decodes and encodes decodes again from its encoding to the
// same encoding.
func FuzzDecodeMessage[M Decoded](t *testing.T, c *Codec, line []byte, decode func(data []byte, method string) (M, error)) {
	tr := c.NewTracker()
	for _, id := range []string{`1`, `"1"`} {
		if err := tr.Track(id, fuzzMethod); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tr.Decode(line); err == nil && tr.Len() > 2 {
		t.Fatal("Decode added a tracked request")
	}
	m, err := decode(line, fuzzMethod)
	if err != nil {
		if _, ok := c.MessageError(err); !ok {
			t.Fatalf("error %T is not a *MessageError: %v", err, err)
		}
		return
	}
	out, err := m.MarshalJSON()
	if err != nil {
		return // a response whose id is null (v1) has no ID to write
	}
	again, err := decode(out, fuzzMethod)
	if err != nil {
		t.Fatalf("%s encodes to %s, which does not decode: %v", line, out, err)
	}
	out2, err := again.MarshalJSON()
	if err != nil || string(out2) != string(out) {
		t.Fatalf("%s encodes to %s, then to %s (%v)", line, out, out2, err)
	}
}
