package acpconductor

import (
	"bytes"
	"reflect"
	"testing"
)

// TestWrappedCommon: the envelopes in the layout wrap writes are read
// without a decoder as the decoder reads them, and any other layout is
// left to the decoder.
func TestWrappedCommon(t *testing.T) {
	for _, c := range []struct {
		params string
		fast   bool
	}{
		{`{"method":"session/update","params":{"sessionId":"s","u":{"t":"a \"}\" [","n":1.50}}}`, true},
		{`{"method":"x","params":[1,{"a":"\\"}]}`, true},
		{`{"method":"x"}`, true},
		{`{"method":"x","params":{"a":1},"_meta":{}}`, false},
		{`{"method":"x","params":{"a":1} }`, false},
		{`{"method":"\u0078","params":{}}`, false},
		{`{"params":{},"method":"x"}`, false},
		{`{"method":"x","params":null}`, false},
	} {
		line := []byte(`{"jsonrpc":"2.0","method":"proxy/successor","params":` + c.params + `}`)
		m := &message{}
		if err := m.read(line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		_, _, fast := wrappedCommon(m.paramsRaw())
		if fast != c.fast {
			t.Errorf("%s: read without a decoder %v, want %v", c.params, fast, c.fast)
		}
		method, params, err := unwrap(m)
		var wantMethod, wantParams []byte
		members(m.paramsRaw(), func(name string, s span) {
			switch name {
			case "method":
				wantMethod = m.paramsRaw()[s.start:s.end]
			case "params":
				wantParams = m.paramsRaw()[s.start:s.end]
			}
		})
		if string(wantParams) == "null" {
			wantParams = nil
		}
		if err != nil || !bytes.Equal(method, wantMethod) || !bytes.Equal(params, wantParams) {
			t.Errorf("%s: unwrapped as %s %s (%v), want %s %s", c.params, method, params, err, wantMethod, wantParams)
		}
	}
}

// FuzzParseCommon: what the common layout's reading makes of a line is
// what the reading member by member does, and it takes the lines that
// conductors and connections write.
func FuzzParseCommon(f *testing.F) {
	common := []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"n":1.50,"s":"\u00e9"}}}`,
		`{"jsonrpc":"2.0","id":12,"method":"proxy/successor","params":{"method":"session/update","params":{}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"x"}`,
		`{"jsonrpc":"2.0","method":"y","params":[1,2]}`,
	}
	for _, s := range common {
		if !new(message).readCommon([]byte(s)) {
			f.Fatalf("%s: not read in the common layout", s)
		}
	}
	for _, s := range append(common,
		`{"jsonrpc":"2.0","id":3,"result":{"a":1}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"a":1},"x":{}}`,
		`{"jsonrpc":"2.0","id":03,"method":"x","params":{}}`,
		`{"jsonrpc":"2.0","id":3,"method":"a`+"\x01"+`b","params":{}}`,
		`{"jsonrpc":"2.0","method":"x","params":{"a":[}}`,
		`{"jsonrpc":"2.0","result":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","params":null}`,
		`{"jsonrpc":"2.0","method":"x","params":{} }`,
		`{"jsonrpc":"2.0","id":2,"result":[1] }`,
	) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		fast, slow := &message{}, &message{}
		if !fast.readCommon(line) {
			return
		}
		if err := slow.readMembers(line); err != nil {
			t.Fatalf("%q: read in the common layout, refused member by member: %v", line, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: read as\n%+v\nin the common layout, and as\n%+v", line, *fast, *slow)
		}
	})
}
