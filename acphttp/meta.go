package acphttp

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// withMeta returns msg, a JSON-RPC message, with the member key: value
// (value JSON text) added to the _meta object of its member where
// ("params", or "result" for a response), which it creates when missing.
// A message whose where is not an object (an error response, a result
// that is not an object, a notification without params) gets a top-level
// _meta instead. msg is not changed.
func withMeta(msg []byte, where, key string, value []byte) []byte {
	member := make([]byte, 0, len(key)+len(value)+4)
	member, _ = jsontext.AppendQuote(member, key)
	member = append(member, ':')
	member = append(member, value...)

	s := decoders.Get().(*scanner)
	defer func() {
		s.r.Reset(nil)
		s.d.Reset(&s.r)
		decoders.Put(s)
	}()
	s.r.Reset(msg)
	s.d.Reset(&s.r)
	d := &s.d
	if at, ok := metaPlace(d, where, !bytes.Contains(msg, []byte(`"_meta"`))); ok {
		return splice(msg, at, member)
	}
	// No object to put it in: a top-level _meta, first.
	i := bytes.IndexByte(msg, '{') + 1
	obj := append(append([]byte(`"_meta":{`), member...), '}', ',')
	return insert(msg, i, obj)
}

// place is where withMeta puts its member.
type place struct {
	at      int  // the offset to insert at
	newMeta bool // in a new _meta member, first in the object
	replace int  // the bytes of a null _meta to replace
	empty   bool // the object inserted in is empty
}

// metaPlace finds the place of a _meta member in the object member where
// of the message d reads. noMeta says that the message has no _meta
// anywhere, so that the first offset in the object will do.
func metaPlace(d *jsontext.Decoder, where string, noMeta bool) (place, bool) {
	if d.PeekKind() != '{' {
		return place{}, false
	}
	if _, err := d.ReadToken(); err != nil {
		return place{}, false
	}
	for d.PeekKind() != '}' {
		name, err := d.ReadValue()
		if err != nil {
			return place{}, false
		}
		if !nameIs(name, `"`+where+`"`) {
			if d.SkipValue() != nil {
				return place{}, false
			}
			continue
		}
		if d.PeekKind() != '{' {
			return place{}, false
		}
		if _, err := d.ReadToken(); err != nil {
			return place{}, false
		}
		start := int(d.InputOffset())
		if noMeta || d.PeekKind() == '}' {
			return place{at: start, newMeta: true, empty: d.PeekKind() == '}'}, true
		}
		return metaIn(d, start)
	}
	return place{}, false
}

// metaIn finds the place in the object d is inside, which starts at
// start, after its _meta's opening brace.
func metaIn(d *jsontext.Decoder, start int) (place, bool) {
	for d.PeekKind() != '}' {
		name, err := d.ReadValue()
		if err != nil {
			return place{}, false
		}
		if !nameIs(name, `"_meta"`) {
			if d.SkipValue() != nil {
				return place{}, false
			}
			continue
		}
		switch d.PeekKind() {
		case '{':
			if _, err := d.ReadToken(); err != nil {
				return place{}, false
			}
			return place{at: int(d.InputOffset()), empty: d.PeekKind() == '}'}, true
		case 'n':
			if _, err := d.ReadToken(); err != nil {
				return place{}, false
			}
			end := int(d.InputOffset())
			return place{at: end - 4, replace: 4}, true
		}
		return place{}, false
	}
	return place{at: start, newMeta: true}, true
}

// splice inserts member at p in msg.
func splice(msg []byte, p place, member []byte) []byte {
	var add []byte
	switch {
	case p.replace > 0:
		add = append(append([]byte{'{'}, member...), '}')
	case p.newMeta:
		add = append(append([]byte(`"_meta":{`), member...), '}')
		if !p.empty {
			add = append(add, ',')
		}
	default:
		add = member
		if !p.empty {
			add = append(add, ',')
		}
	}
	out := make([]byte, 0, len(msg)+len(add)-p.replace)
	out = append(out, msg[:p.at]...)
	out = append(out, add...)
	return append(out, msg[p.at+p.replace:]...)
}

// insert returns msg with add inserted at i.
func insert(msg []byte, i int, add []byte) []byte {
	out := make([]byte, 0, len(msg)+len(add))
	out = append(out, msg[:i]...)
	out = append(out, add...)
	return append(out, msg[i:]...)
}

// metaMember returns the value of _meta[key] in the member where of msg,
// or nil: how a client reads a message's cursor.
func metaMember(msg []byte, key string) []byte {
	s := decoders.Get().(*scanner)
	defer func() {
		s.r.Reset(nil)
		s.d.Reset(&s.r)
		decoders.Put(s)
	}()
	s.r.Reset(msg)
	s.d.Reset(&s.r)
	d := &s.d
	if d.PeekKind() != '{' {
		return nil
	}
	if _, err := d.ReadToken(); err != nil {
		return nil
	}
	quoted, _ := jsontext.AppendQuote(nil, key)
	for d.PeekKind() != '}' {
		name, err := d.ReadValue()
		if err != nil {
			return nil
		}
		switch {
		case nameIs(name, `"_meta"`):
			if v := memberOf(d, string(quoted)); v != nil {
				return v
			}
		case nameIs(name, `"params"`), nameIs(name, `"result"`):
			if d.PeekKind() != '{' {
				if d.SkipValue() != nil {
					return nil
				}
				continue
			}
			if _, err := d.ReadToken(); err != nil {
				return nil
			}
			for d.PeekKind() != '}' {
				n, err := d.ReadValue()
				if err != nil {
					return nil
				}
				if nameIs(n, `"_meta"`) {
					if v := memberOf(d, string(quoted)); v != nil {
						return v
					}
					continue
				}
				if d.SkipValue() != nil {
					return nil
				}
			}
			if _, err := d.ReadToken(); err != nil {
				return nil
			}
		default:
			if d.SkipValue() != nil {
				return nil
			}
		}
	}
	return nil
}

// memberOf reads a value and returns a copy of its member quoted, when it
// is an object that has it.
func memberOf(d *jsontext.Decoder, quoted string) []byte {
	if d.PeekKind() != '{' {
		_ = d.SkipValue()
		return nil
	}
	if _, err := d.ReadToken(); err != nil {
		return nil
	}
	var found []byte
	for d.PeekKind() != '}' {
		n, err := d.ReadValue()
		if err != nil {
			return nil
		}
		// n is valid only until the next read.
		match := found == nil && nameIs(n, quoted)
		v, err := d.ReadValue()
		if err != nil {
			return nil
		}
		if match {
			found = bytes.Clone(v)
		}
	}
	if _, err := d.ReadToken(); err != nil {
		return nil
	}
	return found
}
