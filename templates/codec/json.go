//go:build ignore

package acp

import (
	"encoding/json"
	"errors"
	"reflect"
)

// jsonKind returns the first byte of the JSON value in data, which tells its
// kind: '{', '[', '"', 't' or 'f', 'n', or a digit or '-' for numbers.
func jsonKind(data []byte) byte {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c
	}
	return 0
}

// kindName names the kind of JSON value that starts with c, for errors.
func kindName(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// typeError reports JSON that does not fit the Go type of v. The standard
// library adds the path of the enclosing fields to such errors.
func typeError(what string, v any, field string) error {
	return &json.UnmarshalTypeError{Value: what, Type: reflect.TypeOf(v).Elem(), Field: field}
}

// rawHolder is a variant that may hold an unknown variant, kept as the whole
// object it was decoded from.
type rawHolder interface {
	rawObject() json.RawMessage
}

// objectMembers returns the members of the JSON object data, for choosing
// between the alternatives of an untagged union by the keys present. The
// values are slices of data.
func objectMembers(data []byte) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	err := withDecoder(data, func(d *decoder) error {
		if d.PeekKind() != '{' {
			return errNotObject
		}
		if _, err := d.ReadToken(); err != nil {
			return err
		}
		m = map[string]json.RawMessage{}
		for d.PeekKind() != '}' {
			name, err := d.readName()
			if err != nil {
				return err
			}
			key := string(name) // before the next read
			v, err := d.ReadValue()
			if err != nil {
				return err
			}
			m[key] = json.RawMessage(v)
		}
		return nil
	})
	if err != nil {
		return nil
	}
	return m
}

var errNotObject = errors.New("json: not an object")

// firstElementMembers returns the members of the first element of the JSON
// array data; ok is false when the array is empty.
func firstElementMembers(data []byte) (m map[string]json.RawMessage, ok bool) {
	var elems []json.RawMessage
	if json.Unmarshal(data, &elems) != nil || len(elems) == 0 {
		return nil, false
	}
	return objectMembers(elems[0]), true
}

// hasKeys reports whether m has every key.
func hasKeys(m map[string]json.RawMessage, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

// decodeValid decodes data into v. The standard library has already checked
// that data is valid JSON before any UnmarshalJSON sees it, so a value with a
// decoder of its own is handed data directly, without a second validation
// pass; others go through json.Unmarshal.
func decodeValid(data []byte, v any) error {
	if u, ok := v.(json.Unmarshaler); ok {
		return u.UnmarshalJSON(data)
	}
	return json.Unmarshal(data, v)
}

// Nullable is an optional property whose null means something of its own,
// such as "clear the title" in a partial update: it keeps an absent property,
// a null and a value apart. The zero value is absent.
type Nullable[T any] struct {
	Value   T    // the value, when Present and not Null
	Present bool // the property is in the JSON object
	Null    bool // the property is null
}

// Some returns a present Nullable holding v: the property is written with
// the value ("title": "Read a file").
func Some[T any](v T) Nullable[T] {
	return Nullable[T]{Value: v, Present: true}
}

// Null returns a present Nullable that is null: the property is written as
// null, which in a partial update clears it ("title": null).
func Null[T any]() Nullable[T] {
	return Nullable[T]{Present: true, Null: true}
}

// MarshalJSON writes null or the value; the enclosing struct leaves out an
// absent property.
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if n.Null {
		return []byte("null"), nil
	}
	return json.Marshal(n.Value)
}

// UnmarshalJSON records that the property is present, and whether it is null.
func (n *Nullable[T]) UnmarshalJSON(data []byte) error {
	*n = Nullable[T]{Present: true}
	if jsonKind(data) == 'n' {
		n.Null = true
		return nil
	}
	return json.Unmarshal(data, &n.Value)
}
