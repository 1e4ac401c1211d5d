//go:build ignore

package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// The checks of the schema's validation keywords. Each takes the error of
// the decoder that read the value and returns it, or its own when the
// value does not pass: a type error, which the x-deserialize-* rules treat
// as a value of the wrong type.

// never reads past a value where the schema allows none (false).
func (d *decoder) never(v any) error {
	if err := d.SkipValue(); err != nil {
		return err
	}
	return typeError("a value where the schema allows none", v, "")
}

// checkLength checks the length of a string in characters (Unicode code
// points), as JSON Schema counts it; max < 0 is no maximum.
func checkLength[T ~string](err error, p *T, min, max int) error {
	if err != nil {
		return err
	}
	if n := utf8.RuneCountInString(string(*p)); n < min || (max >= 0 && n > max) {
		return typeError("string of "+strconv.Itoa(n)+" characters"+bounds(min, max), p, "")
	}
	return nil
}

// patterns holds the compiled regular expressions of checkPattern by
// their text.
var patterns sync.Map

// checkPattern checks that a string matches the regular expression expr
// somewhere, as JSON Schema's pattern asks; the generator made sure that
// Go reads expr as ECMA-262 does.
func checkPattern[T ~string](err error, p *T, expr string) error {
	if err != nil {
		return err
	}
	re, ok := patterns.Load(expr)
	if !ok {
		re, _ = patterns.LoadOrStore(expr, regexp.MustCompile(expr))
	}
	if !re.(*regexp.Regexp).MatchString(string(*p)) {
		return typeError("string that does not match "+expr, p, "")
	}
	return nil
}

// checkItems checks the number of items of a list; max < 0 is no maximum.
func checkItems[S ~[]E, E any](err error, p *S, min, max int) error {
	if err != nil {
		return err
	}
	if n := len(*p); n < min || (max >= 0 && n > max) {
		return typeError("array of "+strconv.Itoa(n)+" items"+bounds(min, max), p, "")
	}
	return nil
}

// bounds describes the bounds of checkLength and checkItems.
func bounds(min, max int) string {
	if max < 0 {
		return " (at least " + strconv.Itoa(min) + ")"
	}
	return " (" + strconv.Itoa(min) + " to " + strconv.Itoa(max) + ")"
}

// The bounds of checkRange.
const (
	hasMin = 1 << iota
	hasMax
	exclusiveMin
	exclusiveMax
)

type number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// checkRange checks a number against the bounds that flags has.
func checkRange[T number](err error, p *T, min, max T, flags uint8) error {
	if err != nil {
		return err
	}
	v := *p
	low := flags&hasMin != 0 && (v < min || (flags&exclusiveMin != 0 && v == min))
	high := flags&hasMax != 0 && (v > max || (flags&exclusiveMax != 0 && v == max))
	if low || high {
		return typeError("number out of the schema's range", p, "")
	}
	return nil
}

// checkValues decodes a value with elem and checks that it is one of the
// JSON values allowed (const, enum), compared as JSON values: numbers by
// value, objects whatever the order of their members.
func checkValues[T any](d *decoder, p *T, elem func(*T, *decoder) error, allowed ...string) error {
	start := d.InputOffset()
	if err := elem(p, d); err != nil {
		return err
	}
	raw := bytes.TrimLeft(d.in[start:d.InputOffset()], " \t\r\n,:")
	for _, want := range allowed {
		if bytes.Equal(raw, []byte(want)) || sameJSON(raw, []byte(want)) {
			return nil
		}
	}
	return typeError(kindName(jsonKind(raw))+" that is not a value the schema allows", p, "")
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b []byte) bool {
	va, errA := decodeNumbers(a)
	vb, errB := decodeNumbers(b)
	return errA == nil && errB == nil && equalJSON(va, vb)
}

func decodeNumbers(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// equalJSON compares two values decoded by decodeAny.
func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		return sameNumber([]byte(x), []byte(y))
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalJSON(v, w) {
				return false
			}
		}
		return true
	}
	return a == b
}

// patchShared returns raw, an unknown variant's object as received, with
// the members names as members (",name:value" pairs that the decoded
// variant writes) hold them where decoding changed them: a member that
// defaulted to absent is left out, one that defaulted to a value has it.
// Null and absent are alike; raw itself comes back when nothing changed.
func patchShared(raw, members []byte, names ...string) []byte {
	var decoded map[string][]byte
	if len(members) > 0 {
		decoded = objectValues(append(append([]byte{'{'}, members[1:]...), '}'))
	}
	out := []byte{'{'}
	changed := false
	err := eachMember(raw, func(name, quoted, value []byte) {
		keep := value
		if isName(names, name) {
			dec, ok := decoded[string(name)]
			switch {
			case ok && (bytes.Equal(dec, value) || sameJSON(dec, value)):
			case !ok && string(value) == "null":
			default:
				changed, keep = true, dec
			}
		}
		if keep == nil {
			return
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, quoted...), ':'), keep...)
	})
	if err != nil || !changed {
		return raw
	}
	return append(out, '}')
}

// objectValues returns the members of the JSON object data by name.
func objectValues(data []byte) map[string][]byte {
	m := map[string][]byte{}
	_ = eachMember(data, func(name, _, value []byte) { m[string(name)] = value })
	return m
}

// eachMember calls f with the name (unquoted and as written) and the value
// of each member of the JSON object data, in order.
func eachMember(data []byte, f func(name, quoted, value []byte)) error {
	d := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	for d.PeekKind() == '"' {
		quoted, err := d.ReadValue()
		if err != nil {
			return err
		}
		quoted = bytes.Clone(quoted)
		name, err := unquote(quoted)
		if err != nil {
			return err
		}
		value, err := d.ReadValue()
		if err != nil {
			return err
		}
		f(name, quoted, bytes.Clone(value))
	}
	return nil
}

func isName(names []string, name []byte) bool {
	for _, n := range names {
		if n == string(name) {
			return true
		}
	}
	return false
}
