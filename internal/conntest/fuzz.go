package conntest

import (
	"encoding/json"
	"testing"
)

// LineMessage is what a package's line reader makes of an accepted line.
type LineMessage struct {
	Empty      bool
	Method     string
	ID, Params []byte
}

// FuzzLine checks that no line makes the line reader parse panic, that it
// refuses a line only with -32700 or -32600, and that what it accepts is a
// message of one kind with JSON values.
func FuzzLine(f *testing.F, parse func(line []byte) (code int, m LineMessage)) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{}}`,
		`{"jsonrpc":"2.0","id":"x","result":null}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":{},"method":"x"}`,
		`[]`, ``, `   `, `{`, `"\u0000"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		code, m := parse(line)
		switch {
		case code != 0:
			if code != -32700 && code != -32600 {
				t.Fatalf("error code %d", code)
			}
		case m.Empty:
		case m.Method == "" && m.ID == nil:
			t.Fatalf("accepted a message with neither method nor id: %q", line)
		case m.ID != nil && !json.Valid(m.ID):
			t.Fatalf("id %q is not JSON", m.ID)
		case m.Params != nil && !json.Valid(m.Params):
			t.Fatalf("params %q are not JSON", m.Params)
		}
	})
}
