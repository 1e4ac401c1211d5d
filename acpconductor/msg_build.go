package acpconductor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// splice returns raw with the spans replaced by the values, spans in the
// order they appear.
func splice(raw []byte, spans []span, values [][]byte) []byte {
	n := len(raw)
	for i, s := range spans {
		n += len(values[i]) - (s.end - s.start)
	}
	return appendSplice(make([]byte, 0, n+1), raw, spans, values)
}

// appendSplice appends raw to b with the spans replaced by the values.
func appendSplice(b, raw []byte, spans []span, values [][]byte) []byte {
	at := 0
	for i, s := range spans {
		b = append(b, raw[at:s.start]...)
		b = append(b, values[i]...)
		at = s.end
	}
	return append(b, raw[at:]...)
}

// build writes a request (id not nil) or notification of method and params,
// given as raw JSON.
func build(id, method, params []byte) []byte {
	return appendBuild(make([]byte, 0, 48+len(method)+len(params)), id, method, params)
}

// appendBuild appends what build writes to b.
func appendBuild(b, id, method, params []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0"`...)
	if id != nil {
		b = append(b, `,"id":`...)
		b = append(b, id...)
	}
	b = append(b, `,"method":`...)
	b = append(b, method...)
	if params != nil {
		b = append(b, `,"params":`...)
		b = append(b, params...)
	}
	return append(b, '}')
}

// wrap writes the proxy/successor envelope of a request (id not nil) or
// notification of method and params.
func wrap(id, method, params []byte) []byte {
	return appendWrap(make([]byte, 0, 80+len(id)+len(method)+len(params)), id, method, params)
}

// appendWrap appends what wrap writes to b.
func appendWrap(b, id, method, params []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0"`...)
	if id != nil {
		b = append(append(b, `,"id":`...), id...)
	}
	b = append(append(b, `,"method":"proxy/successor","params":{"method":`...), method...)
	if params != nil {
		b = append(append(b, `,"params":`...), params...)
	}
	return append(b, "}}"...)
}

// wrappedCommon reads the params of a proxy/successor envelope, part of a
// line parse found valid, in the layout {"method":"M"} or
// {"method":"M","params":P} with M without escapes, as wrap writes them,
// without a decoder; ok is false for any other layout.
func wrappedCommon(p []byte) (method, params []byte, ok bool) {
	r, ok := bytes.CutPrefix(p, []byte(`{"method":"`))
	if !ok {
		return nil, nil, false
	}
	n := bytes.IndexByte(r, '"')
	if n < 0 || bytes.IndexByte(r[:n], '\\') >= 0 {
		return nil, nil, false
	}
	method, r = p[len(`{"method":`):len(`{"method":`)+n+2], r[n+1:]
	if string(r) == "}" {
		return method, nil, true
	}
	if r, ok = bytes.CutPrefix(r, []byte(`,"params":`)); !ok || len(r) < 2 {
		return nil, nil, false
	}
	if end := valueEnd(r); end == len(r)-1 && r[end] == '}' {
		return method, r[:end], true
	}
	return nil, nil, false
}

// valueEnd returns where the JSON value that valid begins with, an object
// or an array, ends; -1 when it is another kind. valid must be valid JSON
// text from that value on.
func valueEnd(valid []byte) int {
	if len(valid) == 0 || valid[0] != '{' && valid[0] != '[' {
		return -1
	}
	depth := 0
	for i := 0; i < len(valid); i++ {
		switch valid[i] {
		case '"':
			for i++; i < len(valid) && valid[i] != '"'; i++ {
				if valid[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// unwrap returns the method and params of the message a proxy/successor
// envelope carries; its _meta stays with the hop.
func unwrap(m *message) (method, params []byte, err error) {
	p := m.paramsRaw()
	if p == nil {
		return nil, nil, errors.New("proxy/successor without params")
	}
	if method, params, ok := wrappedCommon(p); ok {
		if bytes.Equal(params, []byte("null")) {
			params = nil
		}
		return method, params, nil
	}
	err = members(p, func(name string, s span) {
		switch name {
		case "method":
			method = p[s.start:s.end]
		case "params":
			params = p[s.start:s.end]
		}
	})
	if err != nil {
		return nil, nil, fmt.Errorf("proxy/successor params: %w", err)
	}
	if method == nil {
		return nil, nil, errors.New("proxy/successor params without a method")
	}
	if _, err := unquote(method); err != nil {
		return nil, nil, errors.New("proxy/successor params: the method is not a string")
	}
	if bytes.Equal(params, []byte("null")) {
		params = nil
	}
	return method, params, nil
}

// cancelTarget returns the requestId of a $/cancel_request's params and
// where it lies in them.
func cancelTarget(params []byte) (id []byte, s span, ok bool) {
	if params == nil {
		return nil, span{}, false
	}
	members(params, func(name string, v span) {
		if name == "requestId" {
			id, s, ok = params[v.start:v.end], v, true
		}
	})
	return id, s, ok
}

// errorResponse writes an error answer to the request of id.
func errorResponse(id []byte, code int, text string) []byte {
	msg, _ := json.Marshal(text)
	b := make([]byte, 0, 64+len(msg))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, `,"message":`...)
	b = append(b, msg...)
	return append(b, "}}"...)
}

func jsonValid(b []byte) bool { return json.Valid(b) }

// elements finds the values of the JSON array raw.
func elements(raw []byte) ([]span, error) {
	d := decoders.Get().(*decoder)
	defer decoders.Put(d)
	d.rd.Reset(raw)
	d.dec.Reset(&d.rd, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	tok, err := d.dec.ReadToken()
	if err != nil {
		return nil, err
	}
	if tok.Kind() != '[' {
		return nil, errors.New("not an array")
	}
	var out []span
	for d.dec.PeekKind() != ']' {
		v, err := d.dec.ReadValue()
		if err != nil {
			return nil, err
		}
		end := int(d.dec.InputOffset())
		out = append(out, span{end - len(v), end})
	}
	_, err = d.dec.ReadToken()
	return out, err
}
