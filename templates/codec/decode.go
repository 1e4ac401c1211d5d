//go:build ignore

package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// The generated decoders read each JSON value once, token by token, with a
// jsontext.Decoder: no second pass to validate, no map for the tag, no
// reflection. Each decoder reads exactly one value. One that fails on a
// scalar of the wrong kind still reads past it; one that fails inside an
// object or array may stop there, and a caller that goes on after an error
// (a member that defaults on error, an invalid item that is dropped) first
// reads to the end of the value with recover.

// Decoding rules of a member, from the schema's x-deserialize-* keywords.
const (
	nullOK         = 1 << iota // null leaves the zero value: the member may be null, or is optional
	defaultOnError             // a value that fails to decode leaves the zero value
	defaultOnNull              // null leaves the zero value
	nullValue                  // the Go type decodes null itself (free-form JSON, Nullable)
	emptyList                  // the default is an empty list, not nil
	emptyMap                   // the default is an empty map, not nil
	dropInvalid                // an array's items that fail to decode, and null ones, are dropped
)

// decoder reads one JSON text held in memory.
type decoder struct {
	jsontext.Decoder
	in  []byte       // the input: raw values and unknown variants are slices of it
	src bytes.Buffer // reads in without a copy
	buf []byte       // the text of a string with escapes, until the next read
	// seen has the bits of the required members read so far of the object
	// that structRest is reading.
	seen uint64
}

// keepMax is the size of the largest input, and of the largest unquoted
// string, that a pooled decoder keeps a reference to.
const keepMax = 64 << 10

// decodable is a Go type with a generated decoder.
type decodable interface {
	decodeJSON(d *decoder) error
}

// restDecoder is a Go type decoded from a JSON object: decodeRest reads the
// members after the '{' at offset start, through the closing '}'. A type
// that keeps the members its schema allows without naming them leaves out
// those named in outer, which the union it is a variant of decodes: its
// tag and its shared fields.
type restDecoder interface {
	decodeRest(d *decoder, start int64, outer []string) error
}

var decoders = sync.Pool{New: func() any { return new(decoder) }}

// decodeBytes decodes data, a single JSON value, into v. It and
// withDecoder stay out of line: every type's UnmarshalJSON calls them, and a
// copy in each would cost more code than the call costs time.
//
//go:noinline
func decodeBytes(data []byte, v decodable) error {
	return withDecoder(data, func(d *decoder) error {
		if err := v.decodeJSON(d); err != nil {
			return err
		}
		if _, end := d.ReadToken(); end != io.EOF {
			if end != nil {
				return end
			}
			return errors.New("json: invalid data after top-level value")
		}
		return nil
	})
}

// decodeObjectBytes decodes data, a single JSON object, into v: the
// UnmarshalJSON of every struct, which has no decodeJSON of its own.
//
//go:noinline
func decodeObjectBytes(data []byte, v restDecoder) error {
	return withDecoder(data, func(d *decoder) error {
		if err := d.object(v); err != nil {
			return err
		}
		if _, end := d.ReadToken(); end != io.EOF {
			if end != nil {
				return end
			}
			return errors.New("json: invalid data after top-level value")
		}
		return nil
	})
}

// decodeObject decodes a JSON object into the struct p points to: the
// decoder of every struct in a list, a map or a member with rules, one
// instantiation for all, as every pointer type argument shares one.
func decodeObject[P restDecoder](p P, d *decoder) error {
	return d.object(p)
}

// decodeWith decodes data, a single JSON value, into p with elem: the
// UnmarshalJSON of a defined scalar, list or map type. P is a pointer type,
// so that every use shares one instantiation, and decodeWith is not
// inlined, so that its closure is compiled once: p escapes, as the
// receiver of an UnmarshalJSON called through an interface does anyway.
//
//go:noinline
func decodeWith[P any](data []byte, p P, elem func(P, *decoder) error) error {
	return decodeLocal(data, p, elem)
}

// decodeLocal is decodeWith for a p that must not escape, such as a local
// variable that an alternative of an untagged union is decoded into. It
// stays inline, where elem is known and p does not escape.
func decodeLocal[P any](data []byte, p P, elem func(P, *decoder) error) error {
	return withDecoder(data, func(d *decoder) error {
		if err := elem(p, d); err != nil {
			return err
		}
		if _, end := d.ReadToken(); end != io.EOF {
			if end != nil {
				return end
			}
			return errors.New("json: invalid data after top-level value")
		}
		return nil
	})
}

// within decodes raw, a whole JSON object, into v with a decoder of its own.
func within(raw []byte, v restDecoder) error {
	return withDecoder(raw, func(d *decoder) error {
		if _, err := d.ReadToken(); err != nil {
			return err
		}
		return v.decodeRest(d, 0, nil)
	})
}

// withDecoder runs read with a pooled decoder over data.
//
//go:noinline
func withDecoder(data []byte, read func(d *decoder) error) error {
	d := decoders.Get().(*decoder)
	d.reset(data)
	err := read(d)
	d.release()
	decoders.Put(d)
	return err
}

// release lets go of the input before the decoder goes back to the pool:
// a small one stays referenced until the decoder's next use, which spares
// the work of a reset; a large one is let go of now.
func (d *decoder) release() {
	if cap(d.buf) > keepMax {
		d.buf = nil
	}
	if len(d.in) > keepMax {
		d.reset(nil)
		return
	}
	d.in = nil
}

func (d *decoder) reset(data []byte) {
	d.in = data
	d.src = *bytes.NewBuffer(data)
	// Duplicate names are allowed, as by encoding/json: the last one wins.
	d.Reset(&d.src, jsontext.AllowDuplicateNames(true))
}

// mismatch reads past a value of kind k that does not fit v. Like the
// other error paths (recover, fieldError, missing), it stays out
// of line, out of the way of the decoders that call it.
//
//go:noinline
func (d *decoder) mismatch(k jsontext.Kind, v any) error {
	if err := d.SkipValue(); err != nil {
		return err
	}
	return typeError(kindName(byte(k)), v, "")
}

// recover reads to the end of the values that enclose the decoder's
// position deeper than depth, after a decoder failed inside one of them.
//
//go:noinline
func (d *decoder) recover(depth int) error {
	for d.StackDepth() > depth {
		if _, err := d.ReadToken(); err != nil {
			return err
		}
	}
	return nil
}

// skipRest reads the rest of the object that begins at start and returns
// all of it.
func (d *decoder) skipRest(start int64) ([]byte, error) {
	if err := d.recover(d.StackDepth() - 1); err != nil {
		return nil, err
	}
	return d.in[start:d.InputOffset()], nil
}

// notAllowed reports a member that the schema of v does not allow.
func notAllowed(v any) error {
	return typeError("a member the schema does not allow", v, "")
}

// fieldError adds the member name to the path of a type error.
//
//go:noinline
func fieldError(err error, name []byte) error {
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		if te.Field == "" {
			te.Field = string(name)
		} else {
			te.Field = string(name) + "." + te.Field
		}
	}
	return err
}

// missing reports a required member that the object lacks.
//
//go:noinline
func missing(name string, v any) error {
	return typeError(`object without "`+name+`"`, v, name)
}

// isTypeError tells a value that does not fit from malformed JSON, after
// which nothing can be read. It stays out of line, as the error paths do.
//
//go:noinline
func isTypeError(err error) bool {
	var te *json.UnmarshalTypeError
	return errors.As(err, &te)
}
