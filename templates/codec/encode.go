//go:build ignore

package acp

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"sort"
	"strconv"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// The generated encoders append each value to a byte slice: appendMembers
// writes the members of an object, each after a comma, and a union's
// appendJSON writes a whole value. closeObject turns the first comma into
// the '{', so that members from several parts (embedded payloads, unstable
// fields, the shared fields of a union) make one object without a second
// pass; encodeObject does so for the structs in lists and maps.
//
// The output is what encoding/json writes for the same value, except that
// MarshalJSON called directly leaves '<', '>', '&', U+2028 and U+2029 as
// they are; json.Marshal escapes them when it copies the output.

var encodeBuffers = sync.Pool{New: func() any {
	b := make([]byte, 0, 1024)
	return &b
}}

// maxPooled is the capacity beyond which a buffer is not kept for reuse.
const maxPooled = 64 << 10

// encodeBuffer borrows a buffer for MarshalJSON. It, encoded and
// closeObject stay out of line: every type's MarshalJSON calls them.
//
//go:noinline
func encodeBuffer() *[]byte {
	return encodeBuffers.Get().(*[]byte)
}

// encoded returns a copy of b, the encoding appended to the buffer buf
// lent, and returns buf to the pool.
//
//go:noinline
func encoded(buf *[]byte, b []byte, err error) ([]byte, error) {
	var out []byte
	if err == nil {
		out = append(make([]byte, 0, len(b)), b...)
	}
	if cap(b) <= maxPooled {
		*buf = b[:0]
		encodeBuffers.Put(buf)
	}
	return out, err
}

// encodedObject is encoded for the members of an object appended to the
// buffer buf lent, which was empty: MarshalJSON of a struct.
//
//go:noinline
func encodedObject(buf *[]byte, b []byte, err error) ([]byte, error) {
	b, err = closeObject(b, 0, err)
	return encoded(buf, b, err)
}

// membersAppender is an object type: appendMembers appends its members,
// each after a comma.
type membersAppender interface {
	appendMembers(b []byte) ([]byte, error)
}

// encodeObject appends the object p points to: the encoder of every struct
// in a list or a map, one instantiation for all, as every pointer type
// argument shares one. A struct member is closed by the appendMembers of
// its struct, which calls the member's own statically, so that the value
// does not escape.
func encodeObject[P membersAppender](p P, b []byte) ([]byte, error) {
	start := len(b)
	b, err := p.appendMembers(b)
	return closeObject(b, start, err)
}

// encodeWith encodes *p with elem and returns a copy of the result, as
// MarshalJSON does. P is a pointer type, so that every use shares one
// instantiation.
func encodeWith[P any](p P, elem func(P, []byte) ([]byte, error)) ([]byte, error) {
	buf := encodeBuffer()
	b, err := elem(p, *buf)
	return encoded(buf, b, err)
}

// closeObject ends an object whose members were appended after start,
// each after a comma.
//
//go:noinline
func closeObject(b []byte, start int, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	if len(b) == start {
		return append(b, '{', '}'), nil
	}
	b[start] = '{'
	return append(b, '}'), nil
}

// appendName appends the name of a member, after a comma and before its
// colon (`,"name":`), or a variant's tag member. It stays out of line:
// every member of every struct calls it, and a copy of append in each
// costs more code than the call costs time.
//
//go:noinline
func appendName(b []byte, name string) []byte {
	return append(b, name...)
}

// appendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD,
// as encoding/json has it; AppendQuote reports it, and the report is not an
// error here.
func appendString[S ~string](b []byte, s S) []byte {
	b, _ = jsontext.AppendQuote(b, s)
	return b
}

func appendBool[B ~bool](b []byte, v B) []byte {
	return strconv.AppendBool(b, bool(v))
}

func appendInt[I ~int | ~int8 | ~int16 | ~int32 | ~int64](b []byte, i I) []byte {
	return strconv.AppendInt(b, int64(i), 10)
}

func appendUint[U ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64](b []byte, u U) []byte {
	return strconv.AppendUint(b, uint64(u), 10)
}

// appendFloat appends f as encoding/json formats a float64: the shortest
// decimal that reads back as f, with an exponent only below 1e-6 or from
// 1e21 on. NaN and the infinities are not JSON.
func appendFloat[F ~float64](b []byte, v F) ([]byte, error) {
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, &json.UnsupportedValueError{Value: reflect.ValueOf(f), Str: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// 1e-07 is written 1e-7.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// appendRaw appends free-form JSON, compacted; nil is null. Like
// encoding/json, it fails on JSON that is not valid.
func appendRaw[R ~[]byte](b []byte, r R) ([]byte, error) {
	if r == nil {
		return append(b, "null"...), nil
	}
	buf := bytes.NewBuffer(b)
	if err := json.Compact(buf, r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// sliceEncoder and mapEncoder return the encoder of a list or map whose
// values elem appends: nested lists and maps are encoded by nesting calls,
// which keeps the generated code as long as the type, not its square.
func sliceEncoder[T any](elem func(*T, []byte) ([]byte, error)) func(*[]T, []byte) ([]byte, error) {
	return func(s *[]T, b []byte) ([]byte, error) { return appendSlice(b, *s, elem) }
}

func mapEncoder[V any](elem func(*V, []byte) ([]byte, error)) func(*map[string]V, []byte) ([]byte, error) {
	return func(m *map[string]V, b []byte) ([]byte, error) { return appendMap(b, *m, elem) }
}

// appendSlice appends s as a JSON array; nil is the empty array, which the
// schema's arrays are. It stays out of line: a copy of it in every member
// that is a list costs more code than the call costs time. Only the call
// of elem on an item is its own: appendItems, the same for all, writes
// the array.
//
//go:noinline
func appendSlice[T any](b []byte, s []T, elem func(*T, []byte) ([]byte, error)) ([]byte, error) {
	return appendItems(b, len(s), func(b []byte, i int) ([]byte, error) { return elem(&s[i], b) })
}

// appendItems appends an array of n items, which item appends by index.
// It stays out of line, so that appendSlice keeps no copy of it.
//
//go:noinline
func appendItems(b []byte, n int, item func(b []byte, i int) ([]byte, error)) ([]byte, error) {
	b = append(b, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = item(b, i); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendMap appends m as a JSON object with its keys in order, as
// encoding/json writes maps; nil is the empty object. Only the keys and
// the call of elem on a value are its own: appendEntries, the same for
// all, writes the object.
func appendMap[V any](b []byte, m map[string]V, elem func(*V, []byte) ([]byte, error)) ([]byte, error) {
	return appendEntries(b, sortedKeys(m), func(b []byte, k string) ([]byte, error) {
		v := m[k]
		return elem(&v, b)
	})
}

// appendEntries appends an object of the members named keys, whose values
// value appends by name.
//
//go:noinline
func appendEntries(b []byte, keys []string, value func(b []byte, k string) ([]byte, error)) ([]byte, error) {
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, k), ':')
		var err error
		if b, err = value(b, k); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendExtra appends the members of m, which the schema does not name,
// each after a comma, in key order.
func appendExtra(b []byte, m map[string]json.RawMessage) ([]byte, error) {
	for _, k := range sortedKeys(m) {
		b = append(appendString(append(b, ','), k), ':')
		var err error
		if b, err = appendRaw(b, m[k]); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// sortedKeys returns the keys of m in order, as encoding/json writes them.
// It stays out of line, so that appendMap keeps no copy of it.
//
//go:noinline
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// omitEmptyObject removes the member appended to b from start when its
// value is the empty object. A member whose schema default is an object
// holds an empty one in the values the constructors build; it is left out
// when it says no more than that default, as peers that never set it write
// the message.
func omitEmptyObject(b []byte, start int) []byte {
	if n := len(b); n-start > 2 && b[n-2] == '{' && b[n-1] == '}' {
		return b[:start]
	}
	return b
}

// The encoders of optional members: nothing for an absent member (a nil
// pointer, free-form JSON that is empty), and otherwise its name and its
// value. They stay out of line, one instantiation per kind of value shared
// by every struct, so that each member costs one call.

//go:noinline
func appendOptionalString[S ~string](b []byte, name string, p *S) []byte {
	if p == nil {
		return b
	}
	return appendString(appendName(b, name), *p)
}

//go:noinline
func appendOptionalBool[B ~bool](b []byte, name string, p *B) []byte {
	if p == nil {
		return b
	}
	return appendBool(appendName(b, name), *p)
}

//go:noinline
func appendOptionalInt[I ~int | ~int8 | ~int16 | ~int32 | ~int64](b []byte, name string, p *I) []byte {
	if p == nil {
		return b
	}
	return appendInt(appendName(b, name), *p)
}

//go:noinline
func appendOptionalUint[U ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64](b []byte, name string, p *U) []byte {
	if p == nil {
		return b
	}
	return appendUint(appendName(b, name), *p)
}

//go:noinline
func appendOptionalFloat[F ~float64](b []byte, name string, p *F) ([]byte, error) {
	if p == nil {
		return b, nil
	}
	return appendFloat(appendName(b, name), *p)
}

//go:noinline
func appendOptionalRaw[R ~[]byte](b []byte, name string, r R) ([]byte, error) {
	if len(r) == 0 {
		return b, nil
	}
	return appendRaw(appendName(b, name), r)
}

// appendMeta appends the member _meta when r holds one: almost every
// struct has it, and a call of appendMeta is shorter than one of
// appendOptionalRaw with its name.
//
//go:noinline
func appendMeta(b []byte, r json.RawMessage) ([]byte, error) {
	if len(r) == 0 {
		return b, nil
	}
	return appendRaw(appendName(b, `,"_meta":`), r)
}

// appendOptionalObject appends the member name with the struct p points
// to when present says there is one. Its pointee is on the heap already,
// so that calling its appendMembers through an interface costs no
// allocation, and one function serves every struct.
//
//go:noinline
func appendOptionalObject(b []byte, name string, p membersAppender, present bool) ([]byte, error) {
	if !present {
		return b, nil
	}
	b = appendName(b, name)
	start := len(b)
	b, err := p.appendMembers(b)
	return closeObject(b, start, err)
}

// appendNullable appends null or the value of a present Nullable.
func appendNullable[T any](b []byte, n *Nullable[T], elem func(*T, []byte) ([]byte, error)) ([]byte, error) {
	if n.Null {
		return append(b, "null"...), nil
	}
	return elem(&n.Value, b)
}

// The element encoders of arrays and maps, in the form of appendJSON.

func encodeString[S ~string](p *S, b []byte) ([]byte, error) { return appendString(b, *p), nil }

func encodeBool[B ~bool](p *B, b []byte) ([]byte, error) { return appendBool(b, *p), nil }

func encodeInt[I ~int | ~int8 | ~int16 | ~int32 | ~int64](p *I, b []byte) ([]byte, error) {
	return appendInt(b, *p), nil
}

func encodeUint[U ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64](p *U, b []byte) ([]byte, error) {
	return appendUint(b, *p), nil
}

func encodeFloat[F ~float64](p *F, b []byte) ([]byte, error) { return appendFloat(b, *p) }

func encodeRaw[R ~[]byte](p *R, b []byte) ([]byte, error) { return appendRaw(b, *p) }
