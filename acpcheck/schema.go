package acpcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/schema"
)

// A schemaFile is one of the pinned schema files, compiled a definition at
// a time as messages need them.
type schemaFile struct {
	name string // v1/schema.json …
	base string

	once     sync.Once
	err      error
	compiler *jsonschema.Compiler
	byMethod map[string]string // "method kind" → definition name

	mu       sync.Mutex
	compiled map[string]*jsonschema.Schema
}

// validator checks messages of one protocol version against its stable
// and unstable schema files, and decodes them with the generated package.
type validator struct {
	version          int
	stable, unstable *schemaFile
}

var (
	schemaFiles   = map[string]*schemaFile{}
	schemaFilesMu sync.Mutex
)

func fileNamed(name string) *schemaFile {
	schemaFilesMu.Lock()
	defer schemaFilesMu.Unlock()
	f, ok := schemaFiles[name]
	if !ok {
		f = &schemaFile{name: name, base: "acpcheck:///" + name, compiled: map[string]*jsonschema.Schema{}}
		schemaFiles[name] = f
	}
	return f
}

func newValidator(version int) *validator {
	v := fmt.Sprintf("v%d", version)
	return &validator{version: version, stable: fileNamed(v + "/schema.json"), unstable: fileNamed(v + "/schema.unstable.json")}
}

// load reads the file and indexes its definitions by x-method. The files
// declare draft 2020-12; they use nothing that 2019-09 reads differently,
// and 2019-09 compiles them much faster, as acpgen's loader does.
func (f *schemaFile) load() error {
	f.once.Do(func() {
		data, err := schema.FS.ReadFile(f.name)
		if err != nil {
			f.err = err
			return
		}
		var doc struct {
			Defs map[string]map[string]any `json:"$defs"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			f.err = err
			return
		}
		f.byMethod = map[string]string{}
		for name, d := range doc.Defs {
			method, _ := d["x-method"].(string)
			if method == "" {
				continue
			}
			for _, kind := range []string{"Request", "Response", "Notification"} {
				if strings.HasSuffix(name, kind) {
					f.byMethod[method+" "+kind] = name
				}
			}
		}
		out, err := json.Marshal(map[string]any{"$defs": doc.Defs})
		if err != nil {
			f.err = err
			return
		}
		c := jsonschema.NewCompiler()
		c.Draft = jsonschema.Draft2019
		c.LoadURL = func(s string) (io.ReadCloser, error) { return nil, fmt.Errorf("%s is outside the schema file", s) }
		f.err = c.AddResource(f.base, bytes.NewReader(out))
		f.compiler = c
	})
	return f.err
}

// def returns the compiled definition, or nil when the file has none.
func (f *schemaFile) def(name string) (*jsonschema.Schema, error) {
	if err := f.load(); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if s, ok := f.compiled[name]; ok {
		return s, nil
	}
	s, err := f.compiler.Compile(f.base + "#/$defs/" + url.PathEscape(name))
	if err != nil {
		if strings.Contains(err.Error(), "not found") {
			err = nil
		}
		f.compiled[name] = nil
		return nil, err
	}
	f.compiled[name] = s
	return s, nil
}

// defFor names the definition of a message's payload: params of a request
// or notification, result of a response (method is then the request's).
func (f *schemaFile) defFor(method, kind string) string {
	if f.load() != nil {
		return ""
	}
	return f.byMethod[method+" "+kind]
}

// A schemaResult says how a message fared.
type schemaResult struct {
	unstable bool   // valid only under the unstable file
	skipped  bool   // an extension method, or no definition: not judged
	problem  string // why it is not valid, "" when it is
}

// check validates a message's payload: kind is Request, Notification or
// Response, method the message's (or its request's) method.
func (v *validator) check(m *msg, method, kind string) schemaResult {
	if m.JSONRPC != "2.0" {
		return schemaResult{problem: fmt.Sprintf(`"jsonrpc" is %q, not "2.0"`, m.JSONRPC)}
	}
	if m.Error != nil {
		return v.checkDef(errorPayload(m.Raw), "Error")
	}
	payload := m.Params
	if kind == "Response" {
		payload = m.Result
		if payload == nil {
			return schemaResult{problem: "a response with neither result nor error"}
		}
	}
	if strings.HasPrefix(method, "_") {
		return schemaResult{skipped: true}
	}
	name := v.stable.defFor(method, kind)
	if name == "" {
		name = v.unstable.defFor(method, kind)
	}
	if name == "" {
		return schemaResult{skipped: true}
	}
	if payload == nil {
		payload = json.RawMessage("null")
	}
	r := v.checkDef(payload, name)
	if r.problem == "" {
		r.problem = v.decode(m, method)
	}
	return r
}

// checkDef validates a value against a definition of the stable file,
// then of the unstable one.
func (v *validator) checkDef(payload []byte, name string) schemaResult {
	var value any
	if err := json.Unmarshal(payload, &value); err != nil {
		return schemaResult{problem: err.Error()}
	}
	stableProblem := ""
	if s, err := v.stable.def(name); err != nil {
		return schemaResult{problem: "schema: " + err.Error()}
	} else if s != nil {
		err := s.Validate(value)
		if err == nil {
			return schemaResult{}
		}
		stableProblem = validationText(err)
	}
	s, err := v.unstable.def(name)
	if err != nil {
		return schemaResult{problem: "schema: " + err.Error()}
	}
	if s == nil {
		return schemaResult{problem: stableProblem}
	}
	if err := s.Validate(value); err != nil {
		return schemaResult{problem: validationText(err)}
	}
	return schemaResult{unstable: true}
}

// decode decodes the message with the generated package of the version.
func (v *validator) decode(m *msg, method string) string {
	var err error
	if v.version == 2 {
		_, err = acpv2.DecodeMessage(m.Raw, method)
	} else {
		_, err = acpv1.DecodeMessage(m.Raw, method)
	}
	if err != nil {
		return "the generated types do not decode it: " + err.Error()
	}
	return ""
}

// validationText flattens a validation error into one line.
func validationText(err error) string {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return err.Error()
	}
	leaf := ve
	for len(leaf.Causes) > 0 {
		leaf = leaf.Causes[0]
	}
	loc := leaf.InstanceLocation
	if loc == "" {
		loc = "/"
	}
	return fmt.Sprintf("at %s: %s", loc, leaf.Message)
}

// errorPayload extracts the error member of a response.
func errorPayload(raw []byte) []byte {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(raw, &e)
	return e.Error
}
