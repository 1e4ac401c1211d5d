package conformance

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/acpgen/acpgen/internal/jsontest"
)

// Run decodes every message (drafts only when p.Drafts) whose method the package's schema
// defines into its typed value, encodes it again, and checks that the result
// equals the input and validates against the schema. A message that does
// not itself validate against the schema is reported, not compared. It fails
// when fewer than min messages were compared.
func Run(t *testing.T, p Package, min int) {
	s := LoadSchema(t, p.File)
	var compared, invalid, unknown int
	for _, m := range Messages(t, p.Version) {
		if m.Draft && !p.Drafts {
			continue
		}
		def := s.Def(m)
		if def == "" {
			unknown++
			t.Logf("%s: no definition for %s %q in %s", m.Name, m.Kind, m.Method, p.File)
			continue
		}
		v := p.New(m)
		if v == nil {
			t.Errorf("%s: the schema defines %s for %s %q, the package has no type for it", m.Name, def, m.Kind, m.Method)
			continue
		}
		if err := s.Validate(def, m.Params); err != nil {
			invalid++
			t.Logf("%s: the corpus message is not a valid %s, not compared: %v", m.Name, def, err)
			continue
		}
		// Decode through a pointer, so that a null result stays null.
		ptr := reflect.New(reflect.TypeOf(v))
		ptr.Elem().Set(reflect.ValueOf(v))
		t.Run(m.Name, func(t *testing.T) {
			if err := json.Unmarshal(m.Params, ptr.Interface()); err != nil {
				t.Fatalf("decode %s: %v", def, err)
			}
			out, err := json.Marshal(ptr.Interface())
			if err != nil {
				t.Fatalf("encode %s: %v", def, err)
			}
			if ok, diff := Equal(m.Params, out); !ok {
				t.Errorf("round trip of %s changed the value: %s\n in: %s\nout: %s", def, diff, m.Params, out)
			}
			if e := ptr.Elem(); e.Kind() != reflect.Pointer || !e.IsNil() {
				if m, ok := e.Interface().(json.Marshaler); ok {
					jsontest.AssertDirect(t, m, out)
				}
			}
			if err := s.Validate(def, out); err != nil {
				t.Errorf("encoded %s does not validate: %v", def, err)
			}
		})
		compared++
	}
	t.Logf("compared %d messages; %d not valid against the schema; %d with methods the schema does not define", compared, invalid, unknown)
	if compared < min {
		t.Errorf("compared %d messages, want at least %d", compared, min)
	}
}

// RunMessages puts every message (drafts only when p.Drafts) through the
// package's message-level decoder and encoder, responses paired with the
// method of their request, and checks that each re-encodes to an equal
// message. A message whose params or result do not validate against the
// schema may fail to decode, or decode to a repaired message; every other
// one must decode and round-trip.
func RunMessages(t *testing.T, p Package, decode func(data []byte, method string) (any, error)) {
	s := LoadSchema(t, p.File)
	var ok, rejected, repaired int
	for _, m := range Messages(t, p.Version) {
		if m.Draft && !p.Drafts {
			continue
		}
		t.Run(m.Name, func(t *testing.T) {
			method := ""
			if m.Kind == "result" || m.Kind == "error" {
				method = m.Method
			}
			msg, err := decode(m.Body, method)
			if err != nil {
				def := s.Def(m)
				if def != "" && s.Validate(def, m.Params) != nil {
					rejected++
					t.Logf("rejected, and the message is not a valid %s: %v", def, err)
					return
				}
				t.Fatalf("decode: %v", err)
			}
			out, err := json.Marshal(msg)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if m, ok := msg.(json.Marshaler); ok {
				jsontest.AssertDirect(t, m, out)
			}
			if same, diff := Equal(m.Body, out); !same {
				if def := s.Def(m); def != "" && s.Validate(def, m.Params) != nil {
					// The x-deserialize-* rules repair some invalid input,
					// as the reference does: invalid array items dropped.
					repaired++
					t.Logf("not a valid %s; decoded by the lenient rules to %s", def, out)
					return
				}
				t.Errorf("round trip changed the message: %s\n in: %s\nout: %s", diff, compact(m.Body), out)
			}
			ok++
		})
	}
	t.Logf("%d messages round-tripped; of the invalid ones, %d rejected and %d repaired", ok, rejected, repaired)
	if ok == 0 {
		t.Error("no message round-tripped")
	}
}

// RunAll runs, in subtests, the corpus tests of p (Run, RunMessages,
// RunMutations and RunExtraMembers) with the corpus of its build: the
// stable pages against the stable schema, and with the unstable tag the
// draft pages too, against the unstable schema. decode is the package's
// DecodeMessage.
func RunAll(t *testing.T, p Package, unstable bool, decode func(data []byte, method string) (any, error)) {
	p.File = p.Version + "/schema.json"
	min := 50
	if unstable {
		p.File, p.Drafts, min = p.Version+"/schema.unstable.json", true, 100
	}
	// Each message decodes to its typed value, re-encodes alike and
	// validates against the schema.
	t.Run("Conformance", func(t *testing.T) { Run(t, p, min) })
	// Each message goes through DecodeMessage and back.
	t.Run("Messages", func(t *testing.T) { RunMessages(t, p, decode) })
	// Dropped required keys and retyped lenient members follow the schema's
	// rules.
	t.Run("Mutations", func(t *testing.T) { RunMutations(t, p, 20) })
	// A member the schema does not name is written back.
	t.Run("ExtraMembers", func(t *testing.T) { RunExtraMembers(t, p, 50) })
}
