// Package load reads ACP schema files and compiles them with jsonschema/v5,
// keeping for every schema its JSON-pointer location, the source order of its
// properties, and the ACP-specific keywords (x-method, discriminator, …).
package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// File is one compiled schema file.
type File struct {
	// Path is the file's path inside the file system it was read from.
	Path string
	// Defs lists the entries of $defs, sorted by name.
	Defs []Def

	order map[string][]string
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
		return nil, err
	}
	return Parse(path, data)
}

// Parse compiles the schema document data, naming it path in locations.
func Parse(path string, data []byte) (*File, error) {
	var doc struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(doc.Defs) == 0 {
		return nil, fmt.Errorf("%s: no $defs", path)
	}
	order, err := keyOrder(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	url := "acp:///" + strings.TrimPrefix(path, "/")
	// The files declare draft 2020-12. The library scans for 2020-12 dynamic
	// anchors at every subschema, which grows with the square of the file;
	// the files use no dynamic references, and draft 2019-09 reads every
	// keyword they use the same way, so they are compiled as 2019-09.
	doc2019, hoisted, err := compilable(doc.Defs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2019
	c.ExtractAnnotations = true
	c.RegisterExtension("acp", nil, annotationCompiler{})
	if err := c.AddResource(url, bytes.NewReader(doc2019)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f := &File{Path: path, order: order}
	for name := range doc.Defs {
		s, err := c.Compile(url + "#/$defs/" + escape(name))
		if err != nil {
			return nil, fmt.Errorf("%s#/$defs/%s: %w", path, name, err)
		}
		if hoisted {
			unhoist(s)
		}
		f.Defs = append(f.Defs, Def{Name: name, Schema: s})
	}
	sort.Slice(f.Defs, func(i, j int) bool { return f.Defs[i].Name < f.Defs[j].Name })
	return f, nil
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
	keys := f.order[Pointer(s)+"/properties"]
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

// Pointer returns the JSON pointer of s within its file ("/$defs/Foo").
func Pointer(s *jsonschema.Schema) string {
	if i := strings.IndexByte(s.Location, '#'); i >= 0 {
		return s.Location[i+1:]
	}
	return ""
}

// Where returns the file-qualified location of s, for error messages.
func Where(s *jsonschema.Schema) string {
	return strings.TrimPrefix(s.Location, "acp:///")
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
