package acpconductor

import (
	"bytes"
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
		m, err := parse(line)
		if err != nil {
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
