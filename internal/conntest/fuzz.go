package conntest

import (
	"encoding/json"
	"reflect"
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

// FuzzCommonLayout checks a package's fast reading of the lines written in
// the common layout against its reading of any line: read returns, when
// fast is set, whether the fast reading took the line, and the message it
// made of it; otherwise the message, or error, of the reading of any line.
// What the fast reading takes must be what the other makes of the line.
func FuzzCommonLayout(f *testing.F, read func(line []byte, fast bool) (taken bool, m any)) {
	common := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","id":12,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"hi"}]}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}}`,
		`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1.0}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"x"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{}}`,
		`{"jsonrpc":"2.0","id":3,"method":"x"}`,
		`{"jsonrpc":"2.0","id":3,"method":"_x","params":{"a":[1,{"b":null}]}}`,
	}
	for _, s := range common {
		if taken, _ := read([]byte(s), true); !taken {
			f.Fatalf("%s: not read in the common layout", s)
		}
	}
	for _, s := range append(common,
		`{"jsonrpc":"2.0","id":3,"method":"_x","params":{"a":1}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"_x","params":{"a":1} }`,
		`{"jsonrpc":"2.0","id":03,"method":"_x","params":{}}`,
		`{"jsonrpc":"2.0","id":3,"method":"","params":{}}`,
		`{"jsonrpc":"2.0","result":{}}`,
	) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		taken, fast := read(line, true)
		if !taken {
			return
		}
		if _, slow := read(line, false); !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: read as\n%#v\nin the common layout, and as\n%#v", line, fast, slow)
		}
	})
}
