package acpv1

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzProxyCommon checks that the proxy's fast reading of the lines in
// the common layout makes of them, and of the message a proxy/successor
// envelope carries, what the reading of any line does, and that it takes
// the lines conductors write.
func FuzzProxyCommon(f *testing.F) {
	type view struct {
		ID, Params, Result, Err []byte
		Method                  string
		InnerMethod             string
		InnerParams             []byte
	}
	see := func(e proxyEnvelope) view {
		v := view{e.id, e.params, e.result, e.err, e.method, "", nil}
		if e.method != proxySuccessor {
			return v
		}
		if e.unwrapped {
			v.InnerMethod, v.InnerParams = e.inner.method, e.inner.params
			return v
		}
		_ = forMembers(e.params, func(name, value []byte) {
			switch string(name) {
			case "method":
				if value[0] != '"' {
					return
				}
				if s, err := unquote(value); err == nil {
					v.InnerMethod = string(s)
				}
			case "params":
				v.InnerParams = value
			}
		})
		return v
	}
	common := []string{
		`{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"session/update","params":{"sessionId":"s","update":{"n":1.50}}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"proxy/successor","params":{"method":"fs/read_text_file","params":{"path":"/a"}}}`,
		`{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"x/ping"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"proxy/initialize","params":{"protocolVersion":1}}`,
	}
	for _, s := range common {
		if _, ok := proxyCommon([]byte(s)); !ok {
			f.Fatalf("%s: not read in the common layout", s)
		}
	}
	for _, s := range append(common,
		`{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"m","params":{"a":1},"x":2}}`,
		`{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"m","params":{"a":1}} }`,
		`{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"m","params":{"a":1}}}}`,
		`{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"\u006d","params":[]}}`,
		`{"jsonrpc":"2.0","id":01,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"a":}}`,
		`{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"m","params":{"a":[}}}`,
	) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		fast, ok := proxyCommon(line)
		if !ok {
			return
		}
		slow, err := parseEnvelope(bytes.Clone(line))
		if err != nil {
			t.Fatalf("%q: read in the common layout, refused otherwise: %v", line, err)
		}
		if a, b := see(fast), see(slow); !reflect.DeepEqual(a, b) {
			t.Fatalf("%q: read as\n%#v\nin the common layout, and as\n%#v", line, a, b)
		}
	})
}
