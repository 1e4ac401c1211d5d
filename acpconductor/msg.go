package acpconductor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// span is where a member's value lies in a message: raw[start:end], or
// absent when end is 0.
type span struct{ start, end int }

func (s span) ok() bool { return s.end > 0 }

// message is one JSON-RPC message as read, with the places of the members
// the conductor looks at. Its bytes are never re-encoded: what the
// conductor changes (an id, a method) is spliced in, the rest is kept.
type message struct {
	raw                              []byte
	id, method, params, result, errv span
	name                             string // the method, unquoted
}

func (m *message) isResponse() bool  { return !m.method.ok() && m.id.ok() }
func (m *message) isRequest() bool   { return m.method.ok() && m.id.ok() }
func (m *message) get(s span) []byte { return m.raw[s.start:s.end] }
func (m *message) idRaw() []byte     { return m.get(m.id) }
func (m *message) methodRaw() []byte { return m.get(m.method) }
func (m *message) paramsRaw() []byte { return m.getOr(m.params) }
func (m *message) getOr(s span) []byte {
	if !s.ok() {
		return nil
	}
	return m.get(s)
}

// decoder is a pooled JSON decoder and the reader it reads.
type decoder struct {
	rd  bytes.Reader
	dec *jsontext.Decoder
}

var decoders = sync.Pool{New: func() any {
	d := &decoder{}
	d.dec = jsontext.NewDecoder(&d.rd, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	return d
}}

// members finds the values of the members of the JSON object raw, by name.
func members(raw []byte, visit func(name string, s span)) error {
	d := decoders.Get().(*decoder)
	defer decoders.Put(d)
	d.rd.Reset(raw)
	d.dec.Reset(&d.rd, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	dec := d.dec
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '{' {
		return fmt.Errorf("a JSON-RPC message is an object, not %s", kindName(tok.Kind()))
	}
	for dec.PeekKind() != '}' {
		quoted, err := dec.ReadValue() // a name: its bytes, quoted
		if err != nil {
			return err
		}
		name := memberName(quoted)
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		end := int(dec.InputOffset())
		visit(name, span{end - len(v), end})
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	if len(bytes.TrimSpace(raw[dec.InputOffset():])) > 0 {
		return errors.New("text after the JSON object")
	}
	return nil
}

// memberName returns the text of a member's quoted name, without
// allocating for the names routing looks at.
func memberName(quoted []byte) string {
	switch string(quoted) {
	case `"id"`:
		return "id"
	case `"method"`:
		return "method"
	case `"params"`:
		return "params"
	case `"result"`:
		return "result"
	case `"error"`:
		return "error"
	case `"requestId"`:
		return "requestId"
	}
	name, _ := unquote(quoted)
	return name
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '[':
		return "an array (a batch, which ACP does not use)"
	case '"':
		return "a string"
	case '0':
		return "a number"
	}
	return "a literal"
}

// read reads one line of JSON-RPC into m: through readCommon when it has
// the common layout, else member by member.
func (m *message) read(line []byte) error {
	if m.readCommon(line) {
		return nil
	}
	return m.readMembers(line)
}

// readMembers reads one line of JSON-RPC into m member by member.
func (m *message) readMembers(line []byte) error {
	*m = message{raw: line}
	err := members(line, func(name string, s span) {
		switch name {
		case "id":
			m.id = s
		case "method":
			m.method = s
		case "params":
			m.params = s
		case "result":
			m.result = s
		case "error":
			m.errv = s
		}
	})
	if err != nil {
		return err
	}
	if m.id.ok() && bytes.Equal(m.idRaw(), []byte("null")) && !m.method.ok() {
		m.id = span{}
	}
	switch {
	case m.method.ok():
		name, err := unquote(m.methodRaw())
		if err != nil {
			return fmt.Errorf("method: %w", err)
		}
		m.name = name
	case m.id.ok() && (m.result.ok() || m.errv.ok()):
	default:
		return errors.New("a JSON-RPC message has a method, or an id and a result or error")
	}
	if m.params.ok() && bytes.Equal(m.paramsRaw(), []byte("null")) {
		m.params = span{}
	}
	return nil
}

// readCommon reads into m a line in the layout that conductors, proxies and the
// generated connections write: {"jsonrpc":"2.0", an optional "id" in
// decimal digits, then a "method" without escapes and optional "params", or
// a "result", the payload an object or an array. The envelope is read from
// its bytes and the payload checked by one pass of the decoder; it reports
// false for any other line, which read then reads member by member.
func (m *message) readCommon(line []byte) bool {
	const version, id, method, params, result = `{"jsonrpc":"2.0",`, `"id":`, `"method":"`, `,"params":`, `"result":`
	if !bytes.HasPrefix(line, []byte(version)) {
		return false
	}
	*m = message{raw: line}
	at := len(version)
	if bytes.HasPrefix(line[at:], []byte(id)) {
		at += len(id)
		n := 0
		for at+n < len(line) && '0' <= line[at+n] && line[at+n] <= '9' {
			n++
		}
		if n == 0 || n > 18 || n > 1 && line[at] == '0' || at+n == len(line) || line[at+n] != ',' {
			return false
		}
		m.id, at = span{at, at + n}, at+n+1
	}
	payload := &m.params
	if bytes.HasPrefix(line[at:], []byte(method)) {
		start := at + len(method) - 1
		n := plainLength(line[start+1:])
		if n <= 0 {
			return false
		}
		m.method, at = span{start, start + n + 2}, start+n+2
		m.name = methodText(line[start+1 : start+1+n])
		if string(line[at:]) == "}" {
			return true
		}
		if !bytes.HasPrefix(line[at:], []byte(params)) {
			return false
		}
		at += len(params)
	} else if bytes.HasPrefix(line[at:], []byte(result)) && m.id.ok() {
		at += len(result)
		payload = &m.result
	} else {
		return false
	}
	if len(line)-at < 3 || line[len(line)-1] != '}' {
		return false
	}
	v := line[at : len(line)-1]
	if last := v[len(v)-1]; v[0] != '{' && v[0] != '[' || last != '}' && last != ']' || !validValue(v) {
		return false
	}
	*payload = span{at, len(line) - 1}
	return true
}

// plainLength returns the length of the JSON string that b continues,
// after its opening quote, up to its closing quote, if its characters are
// printable ASCII without escapes; otherwise -1.
func plainLength(b []byte) int {
	for i, c := range b {
		switch {
		case c == '"':
			return i
		case c < 0x20 || c > 0x7e || c == '\\':
			return -1
		}
	}
	return -1
}

// methodText returns the method as a string, without allocating for the
// methods that carry most messages.
func methodText(b []byte) string {
	switch string(b) {
	case "session/update":
		return "session/update"
	case "proxy/successor":
		return "proxy/successor"
	case "session/prompt":
		return "session/prompt"
	case "mcp/message":
		return "mcp/message"
	}
	return string(b)
}

// methodName returns the text of a quoted method as unquote does, without
// allocating for the methods that carry most messages.
func methodName(raw []byte) string {
	if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return methodText(raw[1 : len(raw)-1])
	}
	name, _ := unquote(raw)
	return name
}

// validValue reports whether b is one JSON value and nothing more, read
// as members reads: by quickValid's loop, or the decoder where the loop
// cannot tell.
func validValue(b []byte) bool {
	return quickValid(b) || decoderValid(b)
}

// decoderValid is validValue by the decoder.
func decoderValid(b []byte) bool {
	d := decoders.Get().(*decoder)
	defer decoders.Put(d)
	d.rd.Reset(b)
	d.dec.Reset(&d.rd, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if err := d.dec.SkipValue(); err != nil {
		return false
	}
	_, err := d.dec.ReadToken()
	return err == io.EOF
}

// unquote returns the text of the JSON string raw.
func unquote(raw []byte) (string, error) {
	if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", errors.New("not a string")
	}
	return s, nil
}

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
