//go:build ignore

package acp

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// object decodes a JSON object into v. A value of another kind is read
// past and reported.
func (d *decoder) object(v restDecoder) error {
	if k := d.PeekKind(); k != '{' {
		return d.mismatch(k, v)
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	return v.decodeRest(d, d.InputOffset()-1, nil)
}

// members reads the members of an object whose '{' has been read, through
// its '}'. member decodes the value of a name it knows; it reports false,
// having read nothing, for a name it does not know, whose value is skipped.
func (d *decoder) members(member func(name []byte) (bool, error)) error {
	for d.PeekKind() != '}' {
		name, err := d.readName()
		if err != nil {
			return err
		}
		known, err := member(name)
		if err != nil {
			return fieldError(err, name)
		}
		if !known {
			if err := d.SkipValue(); err != nil {
				return err
			}
		}
	}
	_, err := d.ReadToken()
	return err
}

// readName reads an object member's name.
func (d *decoder) readName() ([]byte, error) {
	raw, err := d.ReadValue()
	if err != nil {
		return nil, err
	}
	return unquote(raw)
}

// unquote returns the text of the JSON string raw; it copies only when the
// string has escapes.
func unquote(raw jsontext.Value) ([]byte, error) {
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1], nil
	}
	return jsontext.AppendUnquote(nil, raw)
}

// tagOf reads the tag of the object whose '{' at start has been read. When
// the tag comes first, as encoders write it, it reads only the tag and the
// variant goes on with the decoder. Otherwise it reads the whole object and
// returns it as rest, for the variant to be decoded from; so it does when
// the tag is missing or null (found is false).
func (d *decoder) tagOf(key string, start int64) (tag []byte, found bool, rest []byte, err error) {
	first := true
	for d.PeekKind() != '}' {
		name, err := d.readName()
		if err != nil {
			return nil, false, nil, err
		}
		if string(name) != key {
			if err := d.SkipValue(); err != nil {
				return nil, false, nil, err
			}
			first = false
			continue
		}
		switch k := d.PeekKind(); k {
		case '"':
			raw, err := d.ReadValue()
			if err != nil {
				return nil, false, nil, err
			}
			if tag, err = unquote(raw); err != nil {
				return nil, false, nil, err
			}
			found = true
		case 'n':
			tag, found = nil, false
			if err := d.SkipValue(); err != nil {
				return nil, false, nil, err
			}
		default:
			err := d.mismatch(k, new(string))
			if _, end := d.skipRest(start); end != nil {
				return nil, false, nil, end
			}
			return nil, false, nil, fieldError(err, name)
		}
		if first && found {
			return tag, true, nil, nil
		}
		first = false
	}
	if _, err := d.ReadToken(); err != nil {
		return nil, false, nil, err
	}
	return tag, found, d.in[start:d.InputOffset()], nil
}

// variant decodes the rest of a tagged union's object into v: from the
// decoder when rest is nil, and from rest otherwise. A variant that keeps
// the members it does not know leaves to the union those named in outer:
// its tag and its shared fields.
func (d *decoder) variant(v any, start int64, rest []byte, outer []string) error {
	r := v.(restDecoder)
	if rest == nil {
		return r.decodeRest(d, start, outer)
	}
	return withDecoder(rest, func(d *decoder) error {
		if _, err := d.ReadToken(); err != nil {
			return err
		}
		return r.decodeRest(d, 0, outer)
	})
}

// memberDecoder is a struct decoded by structRest: decodeMember decodes
// the member name when the struct knows it, setting the bit in seen of a
// required one.
type memberDecoder interface {
	decodeMember(d *decoder, name []byte, seen *uint64) (bool, error)
}

// structRest reads the members of an object whose '{' has been read into
// v, keeping those it does not know in *unknown but the ones outer names,
// then reports the first of the n required members it lacks: required
// holds their names, each after the one before and a space, the member
// named i-th having the bit 1<<i. It is the decodeRest of every struct
// that needs no more, one function for all, and its arguments are
// constants: no slice to build for each call. The bits are the decoder's
// while it reads, not a variable of its own, which v would make escape.
//
//go:noinline
func (d *decoder) structRest(v memberDecoder, unknown *string, outer []string, n int, required string) error {
	enclosing := d.seen
	d.seen = 0
	err := d.membersKeeping(func(name []byte) (bool, error) {
		return v.decodeMember(d, name, &d.seen)
	}, unknown, outer)
	seen := d.seen
	d.seen = enclosing
	if err != nil || seen == 1<<n-1 {
		return err
	}
	for i := 0; i < n; i++ {
		name, rest, _ := strings.Cut(required, " ")
		if seen&(1<<i) == 0 {
			return missing(name, v)
		}
		required = rest
	}
	return nil
}

// membersKeeping is members for an object that keeps the members member
// does not know, but those named in outer: it sets *unknown to them, each
// after a comma, as received (compacted), in their order. When there are
// none it leaves *unknown alone, as the members the object lacks are left:
// a value decoded into a fresh one costs nothing more.
func (d *decoder) membersKeeping(member func(name []byte) (bool, error), unknown *string, outer []string) error {
	var kept []byte
	for d.PeekKind() != '}' {
		name, err := d.readName()
		if err != nil {
			return err
		}
		known, err := member(name)
		switch {
		case err != nil:
			return fieldError(err, name)
		case known:
		case isOuter(outer, name):
			err = d.SkipValue()
		default:
			kept, err = d.keep(kept, name)
		}
		if err != nil {
			return err
		}
	}
	if kept != nil {
		*unknown = string(kept)
	}
	_, err := d.ReadToken()
	return err
}

// isOuter reports whether name is one of outer.
func isOuter(outer []string, name []byte) bool {
	for _, o := range outer {
		if o == string(name) {
			return true
		}
	}
	return false
}

// keep appends to kept the member name with the value that comes next,
// after a comma, as received but compacted.
func (d *decoder) keep(kept, name []byte) ([]byte, error) {
	kept, err := jsontext.AppendQuote(append(kept, ','), name)
	if err != nil {
		return nil, err
	}
	kept = append(kept, ':')
	v, err := d.ReadValue()
	if err != nil {
		return nil, err
	}
	if bytes.IndexAny(v, " \t\r\n") < 0 {
		return append(kept, v...), nil
	}
	buf := bytes.NewBuffer(kept)
	if err := json.Compact(buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// orDefault decodes the object that begins at start as def, after the
// variant its tag named failed with err: the variant of a union without a
// tag, which the schema's anyOf accepts the object as when that branch
// does, or the unknown variant, when an unknown tag's object does not fit
// the variant without tag. It reads the rest of the object, unless rest
// holds it, from depth, the decoder's depth inside it; it returns err when
// def does not fit either. The members outer names are left to the union.
func (d *decoder) orDefault(def restDecoder, start int64, rest []byte, depth int, outer []string, err error) error {
	if !isTypeError(err) {
		return err
	}
	if rest == nil {
		if end := d.recover(depth - 1); end != nil {
			return end
		}
		rest = d.in[start:d.InputOffset()]
	}
	if d.variant(def, 0, rest, outer) != nil {
		return err
	}
	return nil
}

// abandon reads the rest of an object that will not be decoded, unless
// rest shows it has been read, and returns err.
func (d *decoder) abandon(start int64, rest []byte, err error) error {
	if rest == nil {
		if _, end := d.skipRest(start); end != nil {
			return end
		}
	}
	return err
}

// alternative decodes the object that comes next as v, the only alternative
// of an untagged union for objects, in the same pass. When v does not fit,
// it reads past the object and returns it as raw, for the union to choose
// from its keys as UnmarshalJSON does; err is then nil.
func (d *decoder) alternative(v restDecoder) (raw []byte, err error) {
	depth := d.StackDepth()
	if _, err := d.ReadToken(); err != nil {
		return nil, err
	}
	start := d.InputOffset() - 1
	if err := v.decodeRest(d, start, nil); err == nil || !isTypeError(err) {
		return nil, err
	}
	if err := d.recover(depth); err != nil {
		return nil, err
	}
	return d.in[start:d.InputOffset()], nil
}

// bridge decodes the next value with v's own UnmarshalJSON.
func (d *decoder) bridge(v json.Unmarshaler) error {
	raw, err := d.ReadValue()
	if err != nil {
		return err
	}
	return v.UnmarshalJSON(raw)
}

// bridgeRest decodes the object that begins at start with v's own
// UnmarshalJSON.
func (d *decoder) bridgeRest(v json.Unmarshaler, start int64) error {
	raw, err := d.skipRest(start)
	if err != nil {
		return err
	}
	return v.UnmarshalJSON(raw)
}

// decodeExtra keeps the value of member name, which the schema does not
// name, in *m as received.
func decodeExtra(d *decoder, name []byte, m *map[string]json.RawMessage) error {
	key := string(name) // before the next read
	v, err := d.ReadValue()
	if err != nil {
		return err
	}
	if *m == nil {
		*m = map[string]json.RawMessage{}
	}
	(*m)[key] = append(json.RawMessage(nil), v...)
	return nil
}
