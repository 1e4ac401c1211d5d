package acpconductor

import (
	"strings"
	"testing"

	"github.com/acpgen/acpgen/internal/quickjson"
)

// FuzzQuickValid: a value the loop finds valid, the decoder finds valid
// too, and the loop takes the values conductors and connections write.
func FuzzQuickValid(f *testing.F) {
	sure := []string{
		`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"12"}}}`,
		`[1,-0.5e+10,true,false,null,"a\"\\\/\b\f\n\r\t\u00e9",{},[], {"a" : [ 1 , 2 ] }]`,
		` {"é":"日本語","n":9007199254740993,"x":1.50,"e":1E-3} `,
		`"text"`, `0`, `-12`, `null`,
	}
	for _, s := range sure {
		if !quickjson.Valid([]byte(s)) || !decoderValid([]byte(s)) {
			f.Fatalf("%s: quick %v, decoder %v", s, quickjson.Valid([]byte(s)), decoderValid([]byte(s)))
		}
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{"a":1,}`, `[1,]`, `{"a"}`, `{"a":01}`, `[1.]`, `[1e]`, `[-]`, `{"a":1}}`, `{"a":1} x`, `[tru]`,
		"[\"a\x01\"]", `["\x"]`, `["\ud800"]`, `["\u12G4"]`, "[\"\xff\"]", `{"a":[}`, `[}`, `{]`, `{1:2}`,
		strings.Repeat("[", 70) + strings.Repeat("]", 70),
		`{"a":1`, `"abc`, ``, ` `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if quickjson.Valid(b) && !decoderValid(b) {
			t.Fatalf("%q: valid to the loop, not to the decoder", b)
		}
	})
}

// TestQuickValidRefuses: what is not JSON, the loop does not take.
func TestQuickValidRefuses(t *testing.T) {
	for _, s := range []string{
		`{"a":1,}`, `[1,]`, `{"a"}`, `{"a":01}`, `[1.]`, `[1e]`, `[-]`, `{"a":1}}`, `{"a":1} x`, `[tru]`,
		"[\"a\x01\"]", `["\x"]`, `["\u12G4"]`, "[\"\xff\"]", `{"a":[}`, `[}`, `{]`, `{1:2}`, `{"a":1`, `"abc`, ``, ` `,
	} {
		if quickjson.Valid([]byte(s)) {
			t.Errorf("%q: taken as valid", s)
		}
	}
}
