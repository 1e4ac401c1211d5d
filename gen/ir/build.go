package ir

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/acpgen/acpgen/gen/load"
)

// Options name the package being built.
type Options struct {
	Name    string // Go package name
	Version string // "v1", "v2"
	Source  string // provenance for the header
}

// Build turns every $defs entry of f into a Type. A construct it cannot
// express is an error naming the schema location.
func Build(f *load.File, o Options) (*Package, error) {
	b := &builder{f: f, defs: map[string]*Type{}}
	for _, d := range f.Defs {
		b.defs[d.Name] = &Type{Name: d.Name, Pointer: load.Pointer(d.Schema)}
	}
	for _, d := range f.Defs {
		if err := b.def(b.defs[d.Name], d.Schema); err != nil {
			return nil, err
		}
	}
	if err := b.finish(); err != nil {
		return nil, err
	}
	p := &Package{Name: o.Name, Version: o.Version, Source: o.Source}
	for _, d := range f.Defs {
		p.Types = append(p.Types, b.defs[d.Name])
	}
	p.Types = append(p.Types, b.synth...)
	sort.SliceStable(p.Types, func(i, j int) bool { return p.Types[i].Name < p.Types[j].Name })
	methods, err := b.methods()
	if err != nil {
		return nil, err
	}
	p.Methods = methods
	return p, nil
}

type builder struct {
	f       *load.File
	defs    map[string]*Type
	synth   []*Type
	pending []pendingVariant
}

// errorf reports a problem at the schema s.
func errorf(s *jsonschema.Schema, format string, args ...any) error {
	return fmt.Errorf("%s: %s", load.Where(s), fmt.Sprintf(format, args...))
}

func (b *builder) def(t *Type, s *jsonschema.Schema) error {
	t.Doc = s.Description
	switch {
	case len(branches(s)) > 0:
		return b.composite(t, s)
	case s.Ref != nil || isSingleRef(s):
		// A definition that is another one under a new name.
		r, err := b.ref(s, t.Name)
		if err != nil {
			return err
		}
		t.Kind, t.Underlying = Named, &r
		return nil
	case hasType(s, "object") || len(s.Properties) > 0:
		if len(s.Properties) == 0 && s.AdditionalProperties != nil && s.AdditionalProperties != false {
			r, err := b.ref(s, t.Name)
			if err != nil {
				return err
			}
			if r.Kind == RefRaw {
				t.Kind = Raw
			} else {
				t.Kind, t.Underlying = Named, &r
			}
			return nil
		}
		t.Kind = Struct
		fields, err := b.fields(s, t.Name, "")
		t.Fields = fields
		return err
	case len(s.Types) == 0 && len(s.AllOf) == 0 && s.Not == nil && len(s.Constant) == 0 && len(s.Enum) == 0:
		t.Kind = Raw
		return nil
	case len(s.Enum) > 0:
		return b.enumKeyword(t, s)
	}
	r, err := b.ref(s, t.Name)
	if err != nil {
		return err
	}
	if r.Kind == RefRaw {
		t.Kind = Raw
		return nil
	}
	t.Kind, t.Underlying = Named, &r
	return nil
}

// composite handles anyOf / oneOf definitions: enums and unions.
func (b *builder) composite(t *Type, s *jsonschema.Schema) error {
	bs := branches(s)
	if len(s.Properties) == 0 {
		if e, ok := enumOf(bs); ok {
			t.Kind, t.Enum = Enum, e
			return nil
		}
	}
	t.Kind = Union
	tag := tagOf(s, bs)
	fields, err := b.fields(s, t.Name, tag)
	if err != nil {
		return err
	}
	t.Fields = fields
	if tag == "" {
		u, err := b.untagged(t.Name, bs)
		t.Union = u
		return err
	}
	u, err := b.tagged(t.Name, tag, bs)
	t.Union = u
	return err
}

func (b *builder) tagged(owner, tag string, bs []*jsonschema.Schema) (*UnionInfo, error) {
	u := &UnionInfo{Tag: tag}
	seen := map[string]bool{}
	for _, br := range bs {
		v := &Variant{Doc: br.Description, Pointer: load.Pointer(br), JSON: KindObject}
		if err := b.variantBody(v, br, owner, tag); err != nil {
			return nil, err
		}
		switch val, ok := tagValue(br, tag); {
		case ok:
			if seen[val] {
				return nil, errorf(br, "tag %q=%q appears twice", tag, val)
			}
			seen[val] = true
			v.Name, v.Tag = val, val
			u.Variants = append(u.Variants, v)
		case br.Not != nil || strings.EqualFold(br.Title, "other"):
			if u.Fallback != nil {
				return nil, errorf(br, "a second fallback branch for tag %q", tag)
			}
			v.Name = "other"
			u.Fallback = v
		default:
			if u.Default != nil {
				return nil, errorf(br, "a second branch without tag %q", tag)
			}
			v.Name = br.Title
			if v.Name == "" {
				return nil, errorf(br, "a branch without tag %q needs a title", tag)
			}
			u.Default = v
		}
	}
	if u.Fallback == nil {
		// The schema has no fallback branch (v1): unknown tags are kept all the same.
		u.Fallback = &Variant{Name: "other", JSON: KindObject}
	}
	return u, nil
}

// variantBody fills the embedded payloads and own fields of an object branch.
func (b *builder) variantBody(v *Variant, br *jsonschema.Schema, owner, tag string) error {
	for _, a := range br.AllOf {
		if a.Ref == nil {
			return errorf(a, "allOf entry without $ref")
		}
		t, err := b.defOf(a.Ref)
		if err != nil {
			return err
		}
		v.Embeds = append(v.Embeds, t)
	}
	if br.Ref != nil {
		t, err := b.defOf(br.Ref)
		if err != nil {
			return err
		}
		v.Embeds = append(v.Embeds, t)
	}
	fields, err := b.fields(br, owner, tag)
	if err != nil {
		return err
	}
	v.Fields = fields
	return nil
}

func (b *builder) untagged(owner string, bs []*jsonschema.Schema) (*UnionInfo, error) {
	u := &UnionInfo{}
	for i, br := range bs {
		v := &Variant{Name: br.Title, Doc: br.Description, Pointer: load.Pointer(br)}
		switch {
		case len(br.AllOf) > 0 || br.Ref != nil:
			if err := b.variantBody(v, br, owner, ""); err != nil {
				return nil, err
			}
			v.JSON = KindObject
			b.pending = append(b.pending, pendingVariant{v, br})
			if v.Name == "" {
				v.Name = v.Embeds[0].Name
			}
		case len(br.Types) == 0 && len(br.Properties) == 0:
			v.JSON = KindAny
			if v.Name == "" {
				v.Name = "other"
			}
			if u.Fallback != nil {
				return nil, errorf(br, "a second alternative that accepts anything")
			}
			u.Fallback = v
			continue
		case hasType(br, "object"):
			if err := b.variantBody(v, br, owner, ""); err != nil {
				return nil, err
			}
			v.JSON = KindObject
			v.Required = br.Required
		default:
			nonNull := withoutNull(br.Types)
			if len(nonNull) == 0 {
				v.JSON = KindNull
			} else {
				if len(nonNull) != 1 {
					return nil, errorf(br, "alternative with several types %v", br.Types)
				}
				r, err := b.ref(br, owner+titleOr(br.Title, fmt.Sprint(i)))
				if err != nil {
					return nil, err
				}
				v.JSON, v.Value = JSONKind(nonNull[0]), &r
				if r.Kind == RefArray && r.Elem.Kind == RefNamed {
					b.pending = append(b.pending, pendingVariant{v, br})
				}
			}
		}
		if v.Name == "" {
			v.Name = string(v.JSON)
		}
		u.Variants = append(u.Variants, v)
	}
	return u, nil
}

func titleOr(title, alt string) string {
	if title != "" {
		return title
	}
	return alt
}

// pendingVariant is an untagged alternative whose selecting keys come from
// definitions that may not be built yet.
type pendingVariant struct {
	v  *Variant
	br *jsonschema.Schema
}

// finish fills in what needs every definition built: the keys that select
// untagged object alternatives, and the elements' keys of array ones.
func (b *builder) finish() error {
	for _, p := range b.pending {
		v := p.v
		if v.Value != nil {
			if elem := v.Value.Elem.Type; elem.Kind == Struct {
				v.Required = b.required(elem)
			}
			continue
		}
		for _, t := range v.Embeds {
			if t.Kind != Struct {
				return errorf(p.br, "untagged alternative %s is not an object", t.Name)
			}
		}
		v.Required = b.requiredOf(v)
	}
	return nil
}

// requiredOf lists the keys an object alternative must have.
func (b *builder) requiredOf(v *Variant) []string {
	var keys []string
	for _, t := range v.Embeds {
		keys = append(keys, b.required(t)...)
	}
	for _, f := range v.Fields {
		if f.Required {
			keys = append(keys, f.JSONName)
		}
	}
	return keys
}

func (b *builder) required(t *Type) []string {
	var keys []string
	for _, f := range t.Fields {
		if f.Required {
			keys = append(keys, f.JSONName)
		}
	}
	return keys
}

// nullMeans recognizes a description that gives null a meaning of its own,
// as patch-style updates do: "Set to null to clear", "`null` unsets it".
var nullMeans = regexp.MustCompile("(?i)set to null to clear|`?null`? (clears|unsets|resets|removes)")

// fields builds the properties of s, in file order, leaving out skip.
func (b *builder) fields(s *jsonschema.Schema, owner, skip string) ([]*Field, error) {
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	var out []*Field
	for _, name := range b.f.Properties(s) {
		if name == skip {
			continue
		}
		p := s.Properties[name]
		a := load.Annotate(p)
		f := &Field{
			JSONName: name, Doc: p.Description, Pointer: load.Pointer(p), Required: req[name],
			DefaultOnError: a.DefaultOnError, SkipInvalidItems: a.SkipInvalidItems, DefaultOnNull: a.DefaultOnNull,
		}
		f.Nullable = isNullable(p)
		f.NullMeans = f.Nullable && !f.Required && nullMeans.MatchString(p.Description)
		r, err := b.ref(p, owner+upperFirst(name))
		if err != nil {
			return nil, err
		}
		f.Type = r
		out = append(out, f)
	}
	return out, nil
}

// ref returns the Go type of the value schema s; synth names a type that
// has to be made up for an inline union or object.
func (b *builder) ref(s *jsonschema.Schema, synth string) (Ref, error) {
	if s.Ref != nil {
		return b.named(s.Ref)
	}
	if isSingleRef(s) {
		return b.named(s.AllOf[0].Ref)
	}
	if bs := branches(s); len(bs) > 0 {
		var rest []*jsonschema.Schema
		for _, br := range bs {
			if !isNull(br) {
				rest = append(rest, br)
			}
		}
		if len(rest) == 1 {
			return b.ref(rest[0], synth)
		}
		if b.methodSelected(rest) {
			return Ref{Kind: RefRaw}, nil
		}
		return b.synthesize(s, synth)
	}
	types := withoutNull(s.Types)
	if len(types) > 1 {
		return Ref{}, errorf(s, "several types %v", s.Types)
	}
	if len(types) == 0 {
		if len(s.Properties) > 0 {
			return b.synthesize(s, synth)
		}
		return Ref{Kind: RefRaw}, nil
	}
	switch types[0] {
	case "string":
		return Ref{Kind: RefString}, nil
	case "boolean":
		return Ref{Kind: RefBool}, nil
	case "number":
		return Ref{Kind: RefFloat}, nil
	case "integer":
		return intRef(s)
	case "array":
		items := s.Items2020
		if items == nil {
			if is, ok := s.Items.(*jsonschema.Schema); ok {
				items = is
			}
		}
		if items == nil {
			return Ref{Kind: RefArray, Elem: &Ref{Kind: RefRaw}}, nil
		}
		elem, err := b.ref(items, synth+"Item")
		if err != nil {
			return Ref{}, err
		}
		return Ref{Kind: RefArray, Elem: &elem}, nil
	case "object":
		if len(s.Properties) > 0 {
			return b.synthesize(s, synth)
		}
		if as, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
			elem, err := b.ref(as, synth+"Value")
			if err != nil {
				return Ref{}, err
			}
			return Ref{Kind: RefMap, Elem: &elem}, nil
		}
		return Ref{Kind: RefRaw, Object: true}, nil
	case "null":
		return Ref{Kind: RefRaw}, nil
	}
	return Ref{}, errorf(s, "unsupported type %q", types[0])
}

func intRef(s *jsonschema.Schema) (Ref, error) {
	switch s.Format {
	case "int8":
		return Ref{Kind: RefInt, Bits: 8}, nil
	case "int16":
		return Ref{Kind: RefInt, Bits: 16}, nil
	case "int32":
		return Ref{Kind: RefInt, Bits: 32}, nil
	case "int64", "":
		return Ref{Kind: RefInt, Bits: 64}, nil
	case "uint8":
		return Ref{Kind: RefInt, Bits: 8, Unsigned: true}, nil
	case "uint16":
		return Ref{Kind: RefInt, Bits: 16, Unsigned: true}, nil
	case "uint32":
		return Ref{Kind: RefInt, Bits: 32, Unsigned: true}, nil
	case "uint64", "uint":
		return Ref{Kind: RefInt, Bits: 64, Unsigned: true}, nil
	}
	return Ref{}, errorf(s, "unsupported integer format %q", s.Format)
}

// synthesize makes a named type for an inline object or union.
func (b *builder) synthesize(s *jsonschema.Schema, name string) (Ref, error) {
	if _, taken := b.defs[name]; taken {
		return Ref{}, errorf(s, "inline type would be called %s, which a definition already is", name)
	}
	for _, t := range b.synth {
		if t.Name == name {
			return Ref{}, errorf(s, "two inline types would be called %s", name)
		}
	}
	t := &Type{Name: name, Pointer: load.Pointer(s)}
	b.synth = append(b.synth, t)
	if err := b.def(t, s); err != nil {
		return Ref{}, err
	}
	if t.Doc == "" {
		t.Doc = "An inline type of the schema."
	}
	return Ref{Kind: RefNamed, Type: t}, nil
}

func (b *builder) named(s *jsonschema.Schema) (Ref, error) {
	t, err := b.defOf(s)
	if err != nil {
		return Ref{}, err
	}
	return Ref{Kind: RefNamed, Type: t}, nil
}

func (b *builder) defOf(s *jsonschema.Schema) (*Type, error) {
	name := load.DefName(s)
	if t := b.defs[name]; t != nil {
		return t, nil
	}
	return nil, errorf(s, "reference to something other than a $defs entry")
}

// methodSelected reports whether the alternatives are method params or
// results, which only the JSON-RPC method name tells apart.
func (b *builder) methodSelected(bs []*jsonschema.Schema) bool {
	for _, br := range bs {
		if nested := branches(br); len(nested) > 0 {
			if !b.methodSelected(nested) {
				return false
			}
			continue
		}
		target := br.Ref
		if isSingleRef(br) {
			target = br.AllOf[0].Ref
		}
		if target == nil {
			return false
		}
		t, err := b.defOf(target)
		if err != nil {
			return false
		}
		if load.Annotate(target).Method == "" && !isFreeForm(target) {
			return false
		}
		_ = t
	}
	return true
}

func (b *builder) enumKeyword(t *Type, s *jsonschema.Schema) error {
	e := &EnumInfo{}
	for _, v := range s.Enum {
		str, ok := v.(string)
		if !ok {
			return errorf(s, "enum value %v is not a string", v)
		}
		e.Values = append(e.Values, &EnumValue{Name: str, String: str})
	}
	t.Kind, t.Enum = Enum, e
	return nil
}

// enumOf recognizes anyOf/oneOf of constants, with an optional open branch.
func enumOf(bs []*jsonschema.Schema) (*EnumInfo, bool) {
	e := &EnumInfo{}
	kind := ""
	for _, br := range bs {
		if len(br.Types) != 1 || len(br.Properties) > 0 || len(br.AllOf) > 0 {
			return nil, false
		}
		ty := br.Types[0]
		if ty != "string" && ty != "integer" {
			return nil, false
		}
		if kind != "" && kind != ty {
			return nil, false
		}
		kind = ty
		if len(br.Constant) == 0 {
			e.Open = true
			continue
		}
		ev := &EnumValue{Doc: br.Description}
		switch c := br.Constant[0].(type) {
		case string:
			ev.Name, ev.String = c, c
		case json.Number:
			n, err := c.Int64()
			if err != nil {
				return nil, false
			}
			ev.Int, ev.Name = n, br.Title
			if ev.Name == "" {
				ev.Name = c.String()
			}
		default:
			return nil, false
		}
		e.Values = append(e.Values, ev)
	}
	if len(e.Values) == 0 {
		return nil, false
	}
	if kind == "integer" {
		r, err := intRef(bs[0])
		if err != nil {
			return nil, false
		}
		e.Integer, e.Bits = true, r.Bits
	}
	return e, true
}

// tagOf finds the property whose constant tells the branches apart.
func tagOf(s *jsonschema.Schema, bs []*jsonschema.Schema) string {
	if d := load.Annotate(s).Discriminator; d != "" {
		return d
	}
	count := map[string]int{}
	for _, br := range bs {
		for name, p := range br.Properties {
			if len(p.Constant) == 1 {
				if _, ok := p.Constant[0].(string); ok {
					count[name]++
				}
			}
		}
	}
	best := ""
	for name, n := range count {
		if n > count[best] || (n == count[best] && name < best) {
			best = name
		}
	}
	return best
}

func tagValue(br *jsonschema.Schema, tag string) (string, bool) {
	p := br.Properties[tag]
	if p == nil || len(p.Constant) != 1 {
		return "", false
	}
	v, ok := p.Constant[0].(string)
	return v, ok
}

func branches(s *jsonschema.Schema) []*jsonschema.Schema {
	if len(s.AnyOf) > 0 {
		return s.AnyOf
	}
	return s.OneOf
}

func isSingleRef(s *jsonschema.Schema) bool {
	return len(s.AllOf) == 1 && s.AllOf[0].Ref != nil && len(s.Types) == 0 && len(s.Properties) == 0 && len(branches(s)) == 0
}

func isNull(s *jsonschema.Schema) bool {
	return len(s.Types) == 1 && s.Types[0] == "null" && s.Ref == nil && len(s.AllOf) == 0
}

func isNullable(s *jsonschema.Schema) bool {
	if hasType(s, "null") {
		return true
	}
	for _, br := range branches(s) {
		if isNull(br) {
			return true
		}
	}
	return false
}

func isFreeForm(s *jsonschema.Schema) bool {
	return len(s.Types) == 0 && len(s.Properties) == 0 && len(branches(s)) == 0 && len(s.AllOf) == 0 && s.Ref == nil
}

func hasType(s *jsonschema.Schema, t string) bool {
	for _, x := range s.Types {
		if x == t {
			return true
		}
	}
	return false
}

func withoutNull(types []string) []string {
	var out []string
	for _, t := range types {
		if t != "null" {
			out = append(out, t)
		}
	}
	return out
}

func upperFirst(s string) string {
	s = strings.TrimLeft(s, "_")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
