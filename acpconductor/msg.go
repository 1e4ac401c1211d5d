package acpconductor

import (
	"bytes"
	"errors"
	"fmt"
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
