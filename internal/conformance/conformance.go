// Package conformance runs the JSON-RPC messages of the protocol's
// documentation through a generated package: decode into the typed value,
// encode again, compare, and validate the result against the pinned schema.
// Tests of the generated packages use it; the corpus lives beside the
// project root (../shared/conformance) and tests skip without it.
package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/internal/jsontest"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/gen/load"
	"github.com/acpgen/acpgen/schema"
)

// Dir is where the corpus lives: shared/conformance beside the module's
// root, found from the working directory of the test (the directory of the
// package under test), however deep that package sits.
var Dir = corpusDir()

// corpusDir returns shared/conformance beside the nearest directory above
// the working directory that holds a go.mod.
func corpusDir() string {
	d, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", "conformance")
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(d, "..", "shared", "conformance")
		}
		up := filepath.Dir(d)
		if up == d {
			return filepath.Join("..", "shared", "conformance")
		}
		d = up
	}
}

// Package is what a test knows of the generated package under test.
type Package struct {
	Version               string // "v1"
	File                  string // schema file the package was generated from, "v1/schema.json"
	Drafts                bool   // include the draft pages, which show the unstable surface
	NewRequestParams      func(method string) any
	NewNotificationParams func(method string) any
	NewResult             func(method string) any
	NewError              func() any
}

// Message is one corpus file.
type Message struct {
	Name   string // file name
	Page   string // doc page the example comes from
	Index  int
	Draft  bool
	Method string // the request's method for responses
	Kind   string // "request", "notification", "result", "error"
	Body   json.RawMessage
	Params json.RawMessage // params, result or error
	ID     json.RawMessage
}

// Messages reads the corpus of a version in page order, pairing each
// response with the method of the request with the same id before it on the
// same page. It skips the test when the corpus is absent.
func Messages(t testing.TB, version string) []Message {
	dir := filepath.Join(Dir, version)
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		t.Skipf("no conformance corpus at %s", dir)
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []Message
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		base := strings.TrimSuffix(name, ".json")
		i := strings.LastIndexByte(base, '_')
		n, err := strconv.Atoi(base[i+1:])
		if i < 0 || err != nil {
			t.Fatalf("%s: name does not end in _N.json", name)
		}
		body, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		msg := Message{Name: name, Page: base[:i], Index: n, Draft: strings.Contains(name, "_draft_"), Body: body, ID: m.ID, Method: m.Method}
		switch {
		case m.Method != "" && m.ID != nil:
			msg.Kind, msg.Params = "request", m.Params
		case m.Method != "":
			msg.Kind, msg.Params = "notification", m.Params
		case m.Error != nil:
			msg.Kind, msg.Params = "error", m.Error
		default:
			msg.Kind, msg.Params = "result", m.Result
		}
		out = append(out, msg)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Page != out[j].Page {
			return out[i].Page < out[j].Page
		}
		return out[i].Index < out[j].Index
	})
	pending := map[string]string{} // page + id → method
	for i := range out {
		m := &out[i]
		key := m.Page + " " + string(compact(m.ID))
		switch m.Kind {
		case "request":
			pending[key] = m.Method
		case "result", "error":
			m.Method = pending[key]
		}
	}
	return out
}

func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// Schema gives the definition names of methods and validates values.
type Schema struct {
	compiler *jsonschema.Compiler
	url      string
	defs     map[string]string // kind + " " + method → def name
}

// LoadSchema reads the pinned schema file the package was generated from.
func LoadSchema(t testing.TB, file string) *Schema {
	data, err := schema.FS.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := load.Parse(file, data)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ir.Build(f, ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := &Schema{compiler: jsonschema.NewCompiler(), url: "acp:///" + file, defs: map[string]string{}}
	if err := s.compiler.AddResource(s.url, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	for _, m := range p.Methods {
		kind := "request"
		if m.Kind == ir.Notification {
			kind = "notification"
		}
		s.defs[kind+" "+m.Name] = m.Params.Name
		if m.Result != nil {
			s.defs["result "+m.Name] = m.Result.Name
		}
	}
	s.defs["error "] = "Error"
	return s
}

// Def returns the definition name for a message, or "".
func (s *Schema) Def(m Message) string {
	if m.Kind == "error" {
		return s.defs["error "]
	}
	return s.defs[m.Kind+" "+m.Method]
}

// Validate checks the JSON value data against the definition def.
func (s *Schema) Validate(def string, data []byte) error {
	sch, err := s.compiler.Compile(s.url + "#/$defs/" + def)
	if err != nil {
		return err
	}
	v, err := jsontest.Value(data)
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

// New returns a new typed value for a message, or nil if the package has none.
func (p Package) New(m Message) any {
	switch m.Kind {
	case "request":
		return p.NewRequestParams(m.Method)
	case "notification":
		return p.NewNotificationParams(m.Method)
	case "result":
		return p.NewResult(m.Method)
	}
	return p.NewError()
}

// Equal reports whether two JSON texts hold the same value, numbers
// compared by their literal text; it describes the first difference. An
// object member whose value is null counts as absent: the schema gives
// optional properties no null of their own meaning.
func Equal(a, b []byte) (bool, string) {
	va, err := jsontest.Value(a)
	if err != nil {
		return false, err.Error()
	}
	vb, err := jsontest.Value(b)
	if err != nil {
		return false, err.Error()
	}
	va, vb = dropNulls(va), dropNulls(vb)
	if reflect.DeepEqual(va, vb) {
		return true, ""
	}
	return false, firstDifference("", va, vb)
}

func dropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
			} else {
				v[k] = dropNulls(e)
			}
		}
	case []any:
		for i, e := range v {
			v[i] = dropNulls(e)
		}
	}
	return v
}

func firstDifference(path string, a, b any) string {
	ma, okA := a.(map[string]any)
	mb, okB := b.(map[string]any)
	if okA && okB {
		keys := map[string]bool{}
		for k := range ma {
			keys[k] = true
		}
		for k := range mb {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			va, inA := ma[k]
			vb, inB := mb[k]
			switch {
			case !inA:
				return fmt.Sprintf("%s.%s added: %v", path, k, vb)
			case !inB:
				return fmt.Sprintf("%s.%s lost: %v", path, k, va)
			case !reflect.DeepEqual(va, vb):
				return firstDifference(path+"."+k, va, vb)
			}
		}
	}
	sa, okA := a.([]any)
	sb, okB := b.([]any)
	if okA && okB && len(sa) == len(sb) {
		for i := range sa {
			if !reflect.DeepEqual(sa[i], sb[i]) {
				return firstDifference(fmt.Sprintf("%s[%d]", path, i), sa[i], sb[i])
			}
		}
	}
	return fmt.Sprintf("%s: %v ≠ %v", path, a, b)
}
