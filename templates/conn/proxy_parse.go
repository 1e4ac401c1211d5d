//go:build ignore

package acp

import (
	"errors"
	"io"
)

// How a proxy reads a line from its conductor: the lines conductors write
// in the common layout (see parseCommon) take a fast path, which reads the
// envelope, and that of proxy/successor, from their bytes and checks the
// payload in one pass (proxy_valid.go); any other line is read member by
// member.

// proxyEnvelope is one JSON-RPC message as read by a proxy: each member a
// slice of the line.
type proxyEnvelope struct {
	id, params, result, err []byte
	method                  string
	hasMethod               bool
	// inner is the message a proxy/successor envelope carries, when the
	// fast path read it (unwrapped is set).
	inner     proxyEnvelope0
	unwrapped bool
}

// proxyEnvelope0 is the method and params of a wrapped message.
type proxyEnvelope0 struct {
	params    []byte
	method    string
	hasMethod bool
}

// parseEnvelope reads the members of a message, checking that the line is
// one JSON object.
func parseEnvelope(line []byte) (e proxyEnvelope, err error) {
	err = withDecoder(line, func(d *decoder) error {
		if d.PeekKind() != '{' {
			if err := d.SkipValue(); err != nil {
				return errLineParse
			}
			return errLineNotObject
		}
		if _, err := d.ReadToken(); err != nil {
			return errLineParse
		}
		for d.PeekKind() != '}' {
			name, err := d.readName()
			if err != nil {
				return errLineParse
			}
			v, err := d.ReadValue()
			if err != nil {
				return errLineParse
			}
			end := int(d.InputOffset())
			v = line[end-len(v) : end]
			switch string(name) {
			case "id":
				e.id = v
			case "method":
				if v[0] != '"' {
					return errLineBadMethod
				}
				s, err := unquote(v)
				if err != nil {
					return errLineParse
				}
				e.method, e.hasMethod = methodName(s), true
			case "params":
				e.params = v
			case "result":
				e.result = v
			case "error":
				e.err = v
			}
		}
		if _, err := d.ReadToken(); err != nil {
			return errLineParse
		}
		if _, err := d.ReadToken(); err != io.EOF {
			return errLineParse
		}
		return nil
	})
	if e.id != nil && !validID(e.id) {
		return e, errors.New("the id is neither a number nor a string")
	}
	return e, err
}

// parseProxyLine reads a line: through proxyCommon when it has the common
// layout, else parseEnvelope.
func parseProxyLine(line []byte) (proxyEnvelope, error) {
	if e, ok := proxyCommon(line); ok {
		return e, nil
	}
	return parseEnvelope(line)
}

// proxyCommon reads a line in the common layout: {"jsonrpc":"2.0", an
// optional "id" in decimal digits, then a "method" of printable ASCII
// without escapes and optional "params", or a "result". The params of
// proxy/successor in the layout {"method":"M"} or {"method":"M","params":P}
// are read as the message they carry. The payload, params or result, must
// be an object or an array, checked in one pass (validValue); it reports
// false for any other line.
func proxyCommon(line []byte) (e proxyEnvelope, ok bool) {
	rest, ok := cutPrefix(line, commonVersion)
	if !ok {
		return e, false
	}
	if r, ok := cutPrefix(rest, commonID); ok {
		n := 0
		for n < len(r) && '0' <= r[n] && r[n] <= '9' {
			n++
		}
		if n == 0 || n > 18 || n > 1 && r[0] == '0' || n == len(r) || r[n] != ',' {
			return e, false
		}
		e.id, rest = r[:n], r[n+1:]
	}
	if r, ok := cutPrefix(rest, commonMethod); ok {
		n := plainString(r)
		if n <= 0 {
			return e, false
		}
		e.method, e.hasMethod, rest = methodName(r[:n]), true, r[n+1:]
		if string(rest) == "}" {
			return e, true
		}
		if rest, ok = cutPrefix(rest, commonParams); !ok {
			return e, false
		}
	} else if rest, ok = cutPrefix(rest, commonResult); !ok || e.id == nil {
		return e, false
	}
	if len(rest) < 3 || rest[len(rest)-1] != '}' || rest[0] != '{' && rest[0] != '[' {
		return e, false
	}
	value := rest[:len(rest)-1]
	if !e.hasMethod {
		e.result = value
		return e, validValue(value)
	}
	e.params = value
	if e.method == proxySuccessor {
		if e.inner, e.unwrapped = wrappedCommon(value); e.unwrapped {
			return e, true
		}
	}
	return e, validValue(value)
}

// wrappedCommon reads the params of proxy/successor in the layout
// {"method":"M"} or {"method":"M","params":P}, M printable ASCII without
// escapes and P an object or an array: it checks P alone (validValue),
// which makes the whole valid.
func wrappedCommon(params []byte) (inner proxyEnvelope0, ok bool) {
	r, ok := cutPrefix(params, `{"method":"`)
	if !ok {
		return inner, false
	}
	n := plainString(r)
	if n <= 0 {
		return inner, false
	}
	method, r := r[:n], r[n+1:]
	if string(r) != "}" {
		if r, ok = cutPrefix(r, commonParams); !ok || len(r) < 3 || r[0] != '{' && r[0] != '[' || r[len(r)-1] != '}' {
			return inner, false
		}
		if inner.params = r[:len(r)-1]; !validValue(inner.params) {
			return proxyEnvelope0{}, false
		}
	}
	inner.method, inner.hasMethod = methodName(method), true
	return inner, true
}

// validValue reports whether b is one JSON value and nothing more: by
// quickValid, or by the decoder where that cannot tell.
func validValue(b []byte) bool {
	if n := len(b); n > 0 && quickSpace(b, n-1) == n-1 && quickValid(b) {
		return true // the value ends at b's end: b's last byte is not white space
	}
	return withDecoder(b, func(d *decoder) error {
		if err := d.SkipValue(); err != nil {
			return err
		}
		if int(d.InputOffset()) != len(b) {
			return errLineParse
		}
		return nil
	}) == nil
}
