package ir

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/acpgen/acpgen/gen/load"
)

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
	seen := map[string]*jsonschema.Schema{}
	for _, br := range bs {
		v := &Variant{Doc: br.Description, Pointer: load.Pointer(br), JSON: KindObject}
		if err := b.variantBody(v, br, owner, tag); err != nil {
			return nil, err
		}
		if p := br.Properties[tag]; p != nil && len(p.Constant) == 1 {
			if _, isString := p.Constant[0].(string); !isString {
				return nil, errorf(p, "the tag %q of this branch is %v, not a string; union tags must be strings", tag, p.Constant[0])
			}
		}
		switch val, ok := tagValue(br, tag); {
		case ok:
			if prev := seen[val]; prev != nil {
				return nil, errorf(br, "this branch and the one at %s both have the tag %q: %q; decoding cannot tell them apart", load.Pointer(prev), tag, val)
			}
			seen[val] = br
			v.Name, v.Tag = val, val
			u.Variants = append(u.Variants, v)
		case br.Not != nil || strings.EqualFold(br.Title, "other"):
			if u.Fallback != nil {
				return nil, errorf(br, "a second fallback branch for tag %q", tag)
			}
			v.Name = "other"
			if err := b.fallbackAlternatives(v, br, owner); err != nil {
				return nil, err
			}
			u.Fallback = v
		default:
			if u.Default != nil {
				return nil, errorf(br, "a second branch without tag %q", tag)
			}
			v.Name = br.Title
			if v.Name == "" && len(v.Embeds) == 1 {
				v.Name = refVariantName(owner, v.Embeds[0].Name)
			}
			if v.Name == "" {
				return nil, errorf(br, "a branch without tag %q needs a title", tag)
			}
			u.Default = v
			u.DefaultTag = !constrains(br, tag, map[*jsonschema.Schema]bool{})
		}
	}
	if u.Fallback == nil {
		// The schema has no branch for unknown tags: the default branch
		// takes them when it leaves the tag free, as the anyOf does.
		u.UnknownDefault = u.DefaultTag
		// The schema has no fallback branch (v1): unknown tags are kept all the same.
		u.Fallback = &Variant{Name: "other", JSON: KindObject}
	}
	return u, nil
}

// constrains reports whether branch s says anything of the member tag: a
// property of that name, or additionalProperties false, in s or in the
// definitions it is made of ($ref, allOf).
func constrains(s *jsonschema.Schema, tag string, seen map[*jsonschema.Schema]bool) bool {
	if s == nil || seen[s] {
		return false
	}
	seen[s] = true
	if s.Properties[tag] != nil || s.AdditionalProperties == false {
		return true
	}
	if constrains(s.Ref, tag, seen) {
		return true
	}
	for _, a := range s.AllOf {
		if constrains(a, tag, seen) {
			return true
		}
	}
	return false
}

// fallbackAlternatives gives the fallback variant v the alternatives its
// branch br requires of every unknown variant (v2 CreateElicitationRequest:
// a session or a request scope), as an embedded untagged union that the
// decoder checks against the raw object.
func (b *builder) fallbackAlternatives(v *Variant, br *jsonschema.Schema, owner string) error {
	if len(branches(br)) == 0 {
		return nil
	}
	alts := *br
	alts.Properties, alts.Required, alts.Not, alts.Title, alts.Description = nil, nil, nil, "", ""
	r, err := b.synthesize(&alts, owner+"OtherFields")
	if err != nil {
		return err
	}
	r.Type.Doc = "The alternatives that every unknown variant of " + owner + " must match."
	v.Embeds = append(v.Embeds, r.Type)
	return nil
}

func (b *builder) variantBody(v *Variant, br *jsonschema.Schema, owner, tag string) error {
	if c, err := checkOf(Ref{Kind: RefNamed}, br); err != nil || c != nil {
		if err != nil {
			return err
		}
		return errorf(br, "validation keywords (%s) on an object branch of a union are not supported; put them on its properties", keywordsOf(br))
	}
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
	// An inline type of a property is named after the union and the
	// property; when another branch already took that name, the branch's
	// title or tag tells the two apart.
	prev := b.branch
	b.branch = br.Title
	if b.branch == "" {
		b.branch, _ = tagValue(br, tag)
	}
	fields, err := b.fields(br, owner, tag)
	b.branch = prev
	if err != nil {
		return err
	}
	v.Fields = fields
	return nil
}

// refVariantName names a union branch that has neither a tag nor a title
// after the one definition it is: McpServerStdio in McpServer is "stdio".
func refVariantName(owner, def string) string {
	name := strings.TrimPrefix(def, owner)
	if name == "" {
		name = def
	}
	return strings.ToLower(name[:1]) + name[1:]
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
					return nil, errorf(br, "an alternative of several types (%s) cannot be told apart from the others; give each type a branch of its own", strings.Join(nonNull, ", "))
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

type pendingVariant struct {
	v  *Variant
	br *jsonschema.Schema
}

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
