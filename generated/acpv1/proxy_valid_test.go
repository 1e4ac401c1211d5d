package acpv1

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzQuickValid checks that a value the proxy's loop finds valid the
// decoder finds valid too, and that the loop takes the payloads conductors
// and connections write.
func FuzzQuickValid(f *testing.F) {
	decoderValid := func(b []byte) bool {
		return withDecoder(b, func(d *decoder) error {
			if err := d.SkipValue(); err != nil {
				return err
			}
			if int(d.InputOffset()) != len(bytes.TrimRight(b, " \t\r\n")) {
				return errLineParse
			}
			return nil
		}) == nil
	}
	for _, s := range []string{
		`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"12"}}}`,
		`[1,-0.5e+10,true,false,null,"a\"\\\/\b\f\n\r\t\u00e9",{},[], {"a" : [ 1 , 2 ] }]`,
		` {"é":"日本語","n":9007199254740993,"x":1.50,"e":1E-3} `, `"text"`, `0`, `-12`, `null`,
	} {
		if !quickValid([]byte(s)) || !decoderValid([]byte(s)) {
			f.Fatalf("%s: loop %v, decoder %v", s, quickValid([]byte(s)), decoderValid([]byte(s)))
		}
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{"a":1,}`, `[1,]`, `{"a"}`, `{"a":01}`, `[1.]`, `[1e]`, `[-]`, `{"a":1}}`, `{"a":1} x`, `[tru]`,
		"[\"a\x01\"]", `["\x"]`, `["\ud800"]`, `["\u12G4"]`, "[\"\xff\"]", `{"a":[}`, `[}`, `{]`, `{1:2}`,
		strings.Repeat("[", 70) + strings.Repeat("]", 70), `{"a":1`, `"abc`, ``, ` `, `{"a":1,"a":2}`,
	} {
		if s != `{"a":1,"a":2}` && quickValid([]byte(s)) {
			f.Fatalf("%q: taken as valid", s)
		}
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if quickValid(b) && !decoderValid(b) {
			t.Fatalf("%q: valid to the loop, not to the decoder", b)
		}
		if validValue(b) != decoderValid(b) && len(bytes.TrimRight(b, " \t\r\n")) == len(b) {
			t.Fatalf("%q: validValue %v, the decoder %v", b, validValue(b), decoderValid(b))
		}
	})
}
