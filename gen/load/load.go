// Package load reads ACP schema files and compiles them with jsonschema/v5,
// keeping for every schema its JSON-pointer location, the source order of its
// properties, and the ACP-specific keywords (x-method, discriminator, …).
package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/acpgen/acpgen/gen/diag"
)

// File is one compiled schema file.
type File struct {
	// Path is the file's path inside the file system it was read from.
	Path string
	// Defs lists the entries of $defs, sorted by name.
	Defs []Def

	// order holds the property names of each schema that has any, in the
	// order the file lists them.
	order map[*jsonschema.Schema][]string
}

// Def is one entry of $defs.
type Def struct {
	Name   string
	Schema *jsonschema.Schema
}

// Load reads and compiles the schema file at path in fsys.
func Load(fsys fs.FS, path string) (*File, error) {
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, diag.New(path, "", "the file cannot be read: %v", err)
	}
	return Parse(path, data)
}

// Parse compiles the schema document data, naming it path in locations.
// Problems are *diag.Error or *diag.List values located in path.
func Parse(path string, data []byte) (*File, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return nil, syntaxError(path, data, err)
	}
	if dec.More() {
		e := diag.New(path, "", "the file is not valid JSON: data after the schema document")
		e.Line, e.Column = diag.Position(data, int(dec.InputOffset()))
		return nil, e
	}
	doc, ok := root.(map[string]any)
	if !ok {
		return nil, diag.New(path, "", "the schema document must be a JSON object, not %s", kindOf(root))
	}
	defs, ok := doc["$defs"].(map[string]any)
	if !ok || len(defs) == 0 {
		return nil, diag.New(path, "", "the schema has no $defs: there is nothing to generate")
	}
	var errs diag.List
	checkKeywords(path, doc, &errs)
	checkDraft(path, doc, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	tree, err := keyTree(data)
	if err != nil {
		return nil, syntaxError(path, data, err)
	}
	base := "acp:///" + strings.TrimPrefix(path, "/")
	// The files declare draft 2020-12. The library scans for 2020-12 dynamic
	// anchors at every subschema, which grows with the square of the file;
	// the files use no dynamic references, and draft 2019-09 reads every
	// keyword they use the same way, so they are compiled as 2019-09.
	doc2019, hoisted, err := compilable(defs)
	if err != nil {
		return nil, diag.New(path, "", "the schema cannot be read: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2019
	c.ExtractAnnotations = true
	// Every reference resolves inside the file (checkKeywords made sure of
	// it); nothing is ever loaded from a file or the network.
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("%s is outside the schema file", s)
	}
	c.RegisterExtension("acp", nil, annotationCompiler{})
	if err := c.AddResource(base, bytes.NewReader(doc2019)); err != nil {
		return nil, diag.New(path, "", "the schema cannot be read: %v", err)
	}
	f := &File{Path: path, order: map[*jsonschema.Schema][]string{}}
	defNodes := tree.kid("$defs")
	for _, name := range slices.Sorted(maps.Keys(defs)) {
		s, err := compile(c, base+"#/$defs/"+url.PathEscape(escape(name)))
		if err != nil {
			compileErrors(path, "/$defs/"+escape(name), err, &errs)
			continue
		}
		if hoisted {
			unhoist(s)
		}
		orderOf(s, defNodes.kid(name), f.order)
		f.Defs = append(f.Defs, Def{Name: name, Schema: s})
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return f, nil
}

// compile compiles the schema at u. The checks before it leave the library
// nothing it should fail on; should it panic all the same, the panic is the
// definition's error, not the generator's end.
func compile(c *jsonschema.Compiler, u string) (s *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("the schema library failed on it (%v)", r)
		}
	}()
	return c.Compile(u)
}

// syntaxError locates a JSON syntax error in data.
func syntaxError(path string, data []byte, err error) error {
	e := diag.New(path, "", "the file is not valid JSON: %v", err)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		e.Line, e.Column = diag.Position(data, int(se.Offset))
	case errors.Is(err, io.ErrUnexpectedEOF):
		e.Line, e.Column = diag.Position(data, len(data))
	}
	return e
}

// compileErrors reports why the library could not compile the definition at
// pointer: a keyword that is not valid JSON Schema is reported where it is,
// with the library's words and without its URLs.
func compileErrors(path, pointer string, err error, errs *diag.List) {
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		for _, leaf := range leaves(ve, nil) {
			p, uerr := url.PathUnescape(leaf.InstanceLocation)
			if uerr != nil {
				p = leaf.InstanceLocation
			}
			errs.Addf(path, p, "this is not valid JSON Schema: %s", leaf.Message)
		}
		return
	}
	msg := err.Error()
	var se *jsonschema.SchemaError
	if errors.As(err, &se) && se.Err != nil {
		msg = se.Err.Error()
	}
	errs.Addf(path, pointer, "the definition does not compile: %s", strings.ReplaceAll(msg, "acp:///", ""))
}

// leaves appends the innermost causes of a validation error.
func leaves(ve *jsonschema.ValidationError, out []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return append(out, ve)
	}
	for _, c := range ve.Causes {
		out = leaves(c, out)
	}
	return out
}

// Def returns the definition called name, or nil.
func (f *File) Def(name string) *jsonschema.Schema {
	i := sort.Search(len(f.Defs), func(i int) bool { return f.Defs[i].Name >= name })
	if i < len(f.Defs) && f.Defs[i].Name == name {
		return f.Defs[i].Schema
	}
	return nil
}

// Properties returns the property names of s in the order the file lists them.
func (f *File) Properties(s *jsonschema.Schema) []string {
	keys := f.order[s]
	if len(keys) != len(s.Properties) {
		// Not from this file's text: fall back to a stable order.
		keys = make([]string, 0, len(s.Properties))
		for k := range s.Properties {
			keys = append(keys, k)
		}
		sort.Strings(keys)
	}
	return keys
}

// Pointer returns the JSON pointer of s within its file ("/$defs/Foo"), as
// RFC 6901 writes it: not URL-escaped.
func Pointer(s *jsonschema.Schema) string {
	i := strings.IndexByte(s.Location, '#')
	if i < 0 {
		return ""
	}
	p := s.Location[i+1:]
	if strings.IndexByte(p, '%') < 0 {
		return p
	}
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}

// FileOf returns the path of the file s was read from.
func FileOf(s *jsonschema.Schema) string {
	loc, _, _ := strings.Cut(s.Location, "#")
	return strings.TrimPrefix(loc, "acp:///")
}

// Errorf returns a located error about the schema s.
func Errorf(s *jsonschema.Schema, format string, args ...any) *diag.Error {
	return diag.New(FileOf(s), Pointer(s), format, args...)
}

// DefName returns the name of the $defs entry that s is, or "".
func DefName(s *jsonschema.Schema) string {
	p := Pointer(s)
	if !strings.HasPrefix(p, "/$defs/") || strings.Count(p, "/") != 2 {
		return ""
	}
	return unescape(strings.TrimPrefix(p, "/$defs/"))
}

// JSON pointer escaping (RFC 6901).
var (
	escaper   = strings.NewReplacer("~", "~0", "/", "~1")
	unescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

func escape(s string) string { return escaper.Replace(s) }

func unescape(s string) string { return unescaper.Replace(s) }
