package acpv1

import (
	"bytes"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// numbers are JSON numbers at the edges of the decimal comparison: signs,
// zeros written every way, fractions and exponents that cancel, the limits
// of int64, uint64 and float64, and exponents at and past the ±400 the
// comparison reads.
var numbers = []string{
	"0", "-0", "0.0", "-0.0", "0e5", "-0e-0", "0.000e400", "0e401",
	"1", "-1", "1.0", "-1.0", "1.5", "1e0", "1E00", "1e2", "1E+2", "-1e2", "1e-2",
	"100e-2", "120e-1", "12e-1", "-3.26e4", "-32600.0", "10.00", "0.10", "0.1e1",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"9223372036854775807.0", "9.223372036854775807e18", "9.223372036854775808e18",
	"-9.223372036854775808e18", "922337203685477580.7e1", "92233720368547758070e-1",
	"18446744073709551615", "18446744073709551616", "1.8446744073709551615e19",
	"1e18", "1e19", "1e20", "1e21", "-1e19", "10000000000000000000.0",
	"1e400", "1e401", "1e-400", "1e-401", "-1e400", "0.001e400", "1000e-403",
	"0.1", "0.30000000000000004", "0.3", "5e-324", "4.9e-324", "2.2250738585072014e-308",
	"1.7976931348623157e308", "1.7976931348623157e309", "18446744073709552000",
	"123456789012345678901234567890", "0.000000000000000000000000000001e30",
	"100000000000000000000000e-23", "1.00000000000000000000000000001", "65536", "2147483648",
}

// ratOf is the value of the JSON number raw as math/big reads it, nil when
// its exponent is past ±400, as the decoders have always refused.
func ratOf(raw string) *big.Rat {
	if e := bytes.IndexAny([]byte(raw), "eE"); e >= 0 {
		if x, err := strconv.Atoi(raw[e+1:]); err != nil || x < -400 || x > 400 {
			return nil
		}
	}
	r, ok := new(big.Rat).SetString(raw)
	if !ok {
		return nil
	}
	return r
}

// wantInt is what decodeInt[int64] must decode raw as: its value when it is
// a whole number in range, written with a fraction or an exponent or not.
func wantInt(raw string) (int64, bool) {
	if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
		return n, true
	}
	r := ratOf(raw)
	if bytes.IndexAny([]byte(raw), ".eE") < 0 || r == nil || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

func wantUint(raw string) (uint64, bool) {
	if n, err := strconv.ParseUint(raw, 10, 64); err == nil {
		return n, true
	}
	r := ratOf(raw)
	if bytes.IndexAny([]byte(raw), ".eE") < 0 || r == nil || !r.IsInt() || !r.Num().IsUint64() {
		return 0, false
	}
	return r.Num().Uint64(), true
}

// wantFloat is what decodeFloat[float64] must decode raw as: the float64
// that is exactly the number, or an error when none is.
func wantFloat(raw string) (float64, bool) {
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return 0, false
	}
	back := strconv.FormatFloat(f, 'g', -1, 64)
	if back == raw {
		return f, true
	}
	a, b := ratOf(raw), ratOf(back)
	return f, a != nil && b != nil && a.Cmp(b) == 0
}

// checkNumber compares the decimal reading of the JSON number raw with
// math/big's: as an int64, a uint64, a float64, and against other.
func checkNumber(t *testing.T, raw, other string) {
	t.Helper()
	var i int64
	err := decodeWith([]byte(raw), &i, decodeInt[int64])
	if want, ok := wantInt(raw); ok != (err == nil) || ok && i != want {
		t.Errorf("int64 %s: got %d, %v; want %d, %v", raw, i, err, want, ok)
	}
	var u uint64
	err = decodeWith([]byte(raw), &u, decodeUint[uint64])
	if want, ok := wantUint(raw); ok != (err == nil) || ok && u != want {
		t.Errorf("uint64 %s: got %d, %v; want %d, %v", raw, u, err, want, ok)
	}
	var f float64
	err = decodeWith([]byte(raw), &f, decodeFloat[float64])
	if want, ok := wantFloat(raw); ok != (err == nil) || ok && f != want {
		t.Errorf("float64 %s: got %v, %v; want %v, %v", raw, f, err, want, ok)
	}
	a, b := ratOf(raw), ratOf(other)
	want := a != nil && b != nil && a.Cmp(b) == 0
	if got := sameNumber([]byte(raw), []byte(other)); got != want {
		t.Errorf("sameNumber(%s, %s) = %v, want %v", raw, other, got, want)
	}
}

// TestNumbersByDecimalText checks the decimal reading of numbers, by which
// integers written as 1.0 or 1e2 decode and numbers compare, against
// math/big on every pair of the table.
func TestNumbersByDecimalText(t *testing.T) {
	for _, a := range numbers {
		for _, b := range numbers {
			checkNumber(t, a, b)
		}
	}
	if !sameNumber([]byte("-0.0e3"), []byte("0")) || sameNumber([]byte("1e2"), []byte("1e-2")) {
		t.Error("sameNumber: -0.0e3 is 0, 1e2 is not 1e-2")
	}
}

// FuzzNumbersByDecimalText checks the decimal reading of any two JSON
// numbers against math/big.
func FuzzNumbersByDecimalText(f *testing.F) {
	for i, a := range numbers {
		f.Add(a, numbers[(i+7)%len(numbers)])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, s := range []string{a, b} {
			if len(s) > 200 || strings.TrimSpace(s) != s || jsontext.Value(s).Kind() != '0' || !jsontext.Value(s).IsValid() {
				return
			}
		}
		checkNumber(t, a, b)
	})
}
