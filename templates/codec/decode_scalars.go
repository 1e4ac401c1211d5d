//go:build ignore

package acp

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// scalar reads a value of kind k (a string, a number, or true for a
// boolean) for v.
func (d *decoder) scalar(k jsontext.Kind, v any) (jsontext.Value, error) {
	got := d.PeekKind()
	if got == 'f' {
		got = 't'
	}
	if got != k {
		return nil, d.mismatch(got, v)
	}
	return d.ReadValue()
}

// stringText reads a string for v and returns its text, which is valid
// until the next read: a slice of the input, or of the decoder's buffer
// when the string has escapes.
func (d *decoder) stringText(v any) ([]byte, error) {
	raw, err := d.scalar('"', v)
	if err != nil {
		return nil, err
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1], nil
	}
	d.buf, err = jsontext.AppendUnquote(d.buf[:0], raw)
	return d.buf, err
}

// decodeString copies the string out, one allocation for each: a decoded
// message holds on to no more of its input than its strings.
func decodeString[T ~string](p *T, d *decoder) error {
	text, err := d.stringText(p)
	if err != nil {
		return err
	}
	*p = T(text)
	return nil
}

func decodeBool[T ~bool](p *T, d *decoder) error {
	raw, err := d.scalar('t', p)
	if err != nil {
		return err
	}
	*p = raw[0] == 't'
	return nil
}

func decodeInt[T ~int | ~int8 | ~int16 | ~int32 | ~int64](p *T, d *decoder) error {
	raw, err := d.scalar('0', p)
	if err != nil {
		return err
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		text, ok := integral(raw)
		if ok {
			n, err = strconv.ParseInt(text, 10, 64)
		}
		if !ok || err != nil {
			return typeError("number "+string(raw), p, "")
		}
	}
	if int64(T(n)) != n {
		return typeError("number "+string(raw), p, "")
	}
	*p = T(n)
	return nil
}

func decodeUint[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64](p *T, d *decoder) error {
	raw, err := d.scalar('0', p)
	if err != nil {
		return err
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	if err != nil {
		text, ok := integral(raw)
		if ok {
			n, err = strconv.ParseUint(text, 10, 64)
		}
		if !ok || err != nil {
			return typeError("number "+string(raw), p, "")
		}
	}
	if uint64(T(n)) != n {
		return typeError("number "+string(raw), p, "")
	}
	*p = T(n)
	return nil
}

// integral returns the decimal text of a number written with a fraction
// or an exponent (1.0, 1e2) when it is an integer, as JSON Schema and
// other peers count integers; false when it is not, or has more digits
// than any 64-bit integer.
func integral(raw []byte) (string, bool) {
	if bytes.IndexAny(raw, ".eE") < 0 {
		return "", false
	}
	n, ok := decimalOf(raw)
	if !ok || n.exp < 0 || len(n.digits)+n.exp > 20 {
		return "", false
	}
	text := string(n.digits) + strings.Repeat("0", n.exp)
	if len(n.digits) == 0 {
		text = "0"
	}
	if n.neg {
		text = "-" + text
	}
	return text, true
}

// decimal is a number as its digits, without leading or trailing zeros,
// times ten to the power exp; zero has no digits and no sign. Numbers are
// compared and checked as decimals, by their text, rather than as big.Rat
// values: the same answers without math/big in every program.
type decimal struct {
	neg    bool
	digits []byte
	exp    int
}

// decimalOf returns the JSON number raw as a decimal; false when its
// exponent is too large to be worth the work (no float64 has it).
func decimalOf(raw []byte) (decimal, bool) {
	var n decimal
	if len(raw) > 0 && raw[0] == '-' {
		n.neg, raw = true, raw[1:]
	}
	if e := bytes.IndexAny(raw, "eE"); e >= 0 {
		x, err := strconv.Atoi(string(raw[e+1:]))
		if err != nil || x < -400 || x > 400 {
			return n, false
		}
		n.exp, raw = x, raw[:e]
	}
	whole, frac := raw, []byte(nil)
	if dot := bytes.IndexByte(raw, '.'); dot >= 0 {
		whole, frac = raw[:dot], raw[dot+1:]
	}
	n.digits = bytes.TrimLeft(append(append([]byte(nil), whole...), frac...), "0")
	n.exp -= len(frac)
	for len(n.digits) > 0 && n.digits[len(n.digits)-1] == '0' {
		n.digits = n.digits[:len(n.digits)-1]
		n.exp++
	}
	if len(n.digits) == 0 {
		n = decimal{}
	}
	return n, true
}

// sameNumber reports whether the JSON numbers a and b have the same value;
// false when either has an exponent beyond the reach of decimalOf.
func sameNumber(a, b []byte) bool {
	x, okA := decimalOf(a)
	y, okB := decimalOf(b)
	return okA && okB && x.neg == y.neg && x.exp == y.exp && bytes.Equal(x.digits, y.digits)
}

func decodeFloat[T ~float32 | ~float64](p *T, d *decoder) error {
	raw, err := d.scalar('0', p)
	if err != nil {
		return err
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || !exactFloat(raw, f) {
		return typeError("number "+string(raw), p, "")
	}
	*p = T(f)
	return nil
}

// exactFloat reports whether the number raw is the value that f, decoded
// from it, is written back as: 18446744073709551616 would come back as
// 18446744073709552000, another number, and is an error rather than
// rounded.
func exactFloat(raw []byte, f float64) bool {
	var buf [32]byte
	back := strconv.AppendFloat(buf[:0], f, 'g', -1, 64)
	if bytes.Equal(back, raw) {
		return true
	}
	return sameNumber(raw, back)
}

// decodeRaw keeps any JSON value as it is, null included.
func decodeRaw[T ~[]byte](p *T, d *decoder) error {
	raw, err := d.ReadValue()
	if err != nil {
		return err
	}
	*p = append((*p)[:0], raw...)
	return nil
}

// decodeRawObject keeps a free-form value that must be an object.
func decodeRawObject[T ~[]byte](p *T, d *decoder) error {
	if k := d.PeekKind(); k != '{' && k != 'n' {
		return d.mismatch(k, p)
	}
	return decodeRaw(p, d)
}
