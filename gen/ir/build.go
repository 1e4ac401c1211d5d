package ir

import (
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/acpgen/acpgen/gen/diag"
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
	b := &builder{f: f, defs: map[string]*Type{}, inline: map[string]bool{}}
	for _, d := range f.Defs {
		b.defs[d.Name] = &Type{Name: d.Name, Pointer: load.Pointer(d.Schema)}
	}
	// Each definition's first problem is reported; the others are still built.
	var errs []error
	for _, d := range f.Defs {
		b.current = b.defs[d.Name]
		if err := b.definition(b.current, d.Schema); err != nil {
			errs = append(errs, err)
		}
	}
	b.current = nil
	if err := diag.Join(errs...); err != nil {
		return nil, err
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
	inline  map[string]bool // names of the types in synth
	pending []pendingVariant
	// branch is the title (or tag) of the union branch whose properties
	// are being built, "" outside one.
	branch string
	// current is the type being built: the parent of the inline types
	// synthesize makes.
	current *Type
}

// errorf reports a problem at the schema s.
func errorf(s *jsonschema.Schema, format string, args ...any) error {
	return load.Errorf(s, format, args...)
}

// definition builds the $defs entry t from s. Its validation keywords are
// checked by the decoders of a defined type over a scalar, list or map
// (Type.Underlying's Check); on an object, union or enum definition they
// are an error unless no value of it could fail them.
func (b *builder) definition(t *Type, s *jsonschema.Schema) error {
	if s.Always != nil && !*s.Always {
		return errorf(s, "the definition is the schema false, which no value fits; there is no type to generate")
	}
	if err := b.def(t, s); err != nil {
		return err
	}
	if t.Kind == Named || t.Kind == Raw {
		return nil
	}
	c, err := checkOf(Ref{Kind: RefNamed, Type: t}, s)
	if err != nil {
		return err
	}
	if c != nil && t.Kind == Enum && s.Enum != nil {
		c.Values = nil // the enum is the type's own values
		if c.empty() {
			c = nil
		}
	}
	if c != nil {
		return errorf(s, "validation keywords (%s) on a definition that is an object, union or enum are not supported; put them on the properties that use it", keywordsOf(s))
	}
	return nil
}

func (b *builder) def(t *Type, s *jsonschema.Schema) error {
	t.Doc = s.Description
	if err := allOfParts(s); err != nil {
		return err
	}
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
		if as, ok := s.AdditionalProperties.(*jsonschema.Schema); ok && len(s.Properties) > 0 && !acceptsAll(as) {
			return errorf(as, "additionalProperties with a schema beside properties is not supported: acpgen keeps the members the properties do not name as received and cannot check them against a schema")
		}
		t.Kind = Struct
		t.Extra = s.AdditionalProperties != nil && s.AdditionalProperties != false
		t.Closed = s.AdditionalProperties == false
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
	if r.Kind == RefRaw && r.Check == nil {
		t.Kind = Raw
		return nil
	}
	t.Kind, t.Underlying = Named, &r
	return nil
}

// composite handles anyOf / oneOf definitions: enums and unions.
// variantBody fills the embedded payloads and own fields of an object branch.
// pendingVariant is an untagged alternative whose selecting keys come from
// definitions that may not be built yet.
// finish fills in what needs every definition built: the keys that select
// untagged object alternatives, and the elements' keys of array ones.
// requiredOf lists the keys an object alternative must have.
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
		_, f.DefaultObject = p.Default.(map[string]interface{})
		f.Nullable = isNullable(p)
		f.Null = nullUse(s, name, p, f.Required)
		f.NullMeans = f.Null == NullDistinct
		r, err := b.ref(p, b.inlineName(owner, name))
		if err != nil {
			return nil, err
		}
		if r.Check != nil && r.Check.Never && f.Required {
			return nil, errorf(p, "property %q is required, but its schema is false, which no value fits; no object could be valid", name)
		}
		f.Type = r
		out = append(out, f)
	}
	return out, nil
}

// ref returns the Go type of the value schema s; synth names a type that
// has to be made up for an inline union or object.
func (b *builder) ref(s *jsonschema.Schema, synth string) (Ref, error) {
	return b.refNamed(s, synthName{base: synth})
}

// refNamed is ref with the name of a made-up type still in steps: the Go
// type of s with the checks of its validation keywords.
func (b *builder) refNamed(s *jsonschema.Schema, synth synthName) (Ref, error) {
	if err := allOfParts(s); err != nil {
		return Ref{}, err
	}
	if s.Always != nil && !*s.Always {
		// The schema false: no value fits, so a member that has it must be
		// absent.
		return Ref{Kind: RefRaw, Check: never()}, nil
	}
	r, err := b.refShape(s, synth)
	if err != nil {
		return Ref{}, err
	}
	return withCheck(r, s)
}

// refShape is the Go type of s.
func (b *builder) refShape(s *jsonschema.Schema, synth synthName) (Ref, error) {
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
			return b.refNamed(rest[0], synth)
		}
		if b.methodSelected(rest) {
			// Kept raw, as only the method tells the alternatives apart;
			// when every one is an object, so must the value be.
			return Ref{Kind: RefRaw, Object: objectsOnly(rest, 0)}, nil
		}
		return b.synthesize(s, synth.String())
	}
	types := withoutNull(s.Types)
	if len(types) > 1 {
		return Ref{}, errorf(s, "a value of several types (%s) has no Go type; write it as anyOf with one type a branch", strings.Join(types, ", "))
	}
	if len(types) == 0 {
		if len(s.Properties) > 0 {
			return b.synthesize(s, synth.String())
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
		elem, err := b.refNamed(items, synth.then("Item"))
		if err != nil {
			return Ref{}, err
		}
		return Ref{Kind: RefArray, Elem: &elem}, nil
	case "object":
		if len(s.Properties) > 0 {
			return b.synthesize(s, synth.String())
		}
		if as, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
			elem, err := b.refNamed(as, synth.then("Value"))
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

// synthName is the name of a type that may have to be made up: a base,
// then the steps through lists and maps below it ("Item", "Value"), joined
// only when a type is made, so that lists nested deep do not build a name
// at every level.
type synthName struct {
	base string
	last *synthStep
}

type synthStep struct {
	up   *synthStep
	step string
}

func (n synthName) then(step string) synthName {
	return synthName{base: n.base, last: &synthStep{up: n.last, step: step}}
}

func (n synthName) String() string {
	var steps []string
	for s := n.last; s != nil; s = s.up {
		steps = append(steps, s.step)
	}
	var b strings.Builder
	b.WriteString(n.base)
	for i := len(steps) - 1; i >= 0; i-- {
		b.WriteString(steps[i])
	}
	return b.String()
}

// inlineName is the name an inline type of property prop of owner gets:
// owner and property, or, when an inline type of another union branch has
// that name already, owner, branch and property.
func (b *builder) inlineName(owner, prop string) string {
	name := owner + upperFirst(prop)
	if b.branch == "" {
		return name
	}
	if b.inline[name] {
		return owner + upperFirst(b.branch) + upperFirst(prop)
	}
	return name
}

// synthesize makes a named type for an inline object or union.
func (b *builder) synthesize(s *jsonschema.Schema, name string) (Ref, error) {
	if _, taken := b.defs[name]; taken {
		return Ref{}, errorf(s, "inline type would be called %s, which a definition already is", name)
	}
	if b.inline[name] {
		return Ref{}, errorf(s, "two inline types would be called %s", name)
	}
	t := &Type{Name: name, Pointer: load.Pointer(s)}
	if parent := b.current; parent != nil && strings.HasPrefix(name, parent.Name) {
		t.Parent, t.Member = parent, name[len(parent.Name):]
	}
	b.synth = append(b.synth, t)
	b.inline[name] = true
	// The type's own properties are named after it, not after the branch.
	branch, parent := b.branch, b.current
	b.branch, b.current = "", t
	err := b.def(t, s)
	b.branch, b.current = branch, parent
	if err != nil {
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
		if _, err := b.defOf(target); err != nil {
			return false
		}
		if load.Annotate(target).Method == "" && !isFreeForm(target) {
			return false
		}
	}
	return true
}

// objectsOnly reports whether every alternative of bs, through references
// and nested alternatives, accepts JSON objects alone (ProxyRequest's
// params: proxy/initialize's and proxy/successor's, no free-form one).
func objectsOnly(bs []*jsonschema.Schema, depth int) bool {
	if depth > 32 {
		return false
	}
	for _, s := range bs {
		switch {
		case s.Ref != nil:
			if !objectsOnly([]*jsonschema.Schema{s.Ref}, depth+1) {
				return false
			}
		case isSingleRef(s):
			if !objectsOnly([]*jsonschema.Schema{s.AllOf[0].Ref}, depth+1) {
				return false
			}
		case len(s.Types) == 0 && len(branches(s)) > 0:
			if !objectsOnly(branches(s), depth+1) {
				return false
			}
		case len(s.Types) != 1 || s.Types[0] != "object":
			return false
		}
	}
	return true
}

// enumOf recognizes anyOf/oneOf of constants, with an optional open branch.
// tagOf finds the property whose constant tells the branches apart.
