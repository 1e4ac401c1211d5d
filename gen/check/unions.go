package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/acpgen/acpgen/gen/ir"
)

func (c *checker) union(t *ir.Type) {
	u := t.Union
	for _, v := range u.All() {
		c.fields(v.Gate, where(v, t), variantName(t, v), v.Fields)
	}
	if u.Fallback != nil && u.Tag != "" {
		required := 1 // the tag
		for _, f := range u.Fallback.Fields {
			if f.Required {
				required++
			}
		}
		if required > MaxRequired {
			c.errorf(u.Fallback.Gate, where(u.Fallback, t), "the unknown variant of %s has %d required members; acpgen supports at most %d", t.Name, required, MaxRequired)
		}
	}
	if u.Tag != "" {
		c.tags(t)
	} else {
		c.untagged(t)
	}
	c.shapes(t)
}

// where is the pointer of a variant, or of its union when it has none (a
// fallback the schema does not spell out).
func where(v *ir.Variant, t *ir.Type) string {
	if v.Pointer != "" {
		return v.Pointer
	}
	return t.Pointer
}

func variantName(t *ir.Type, v *ir.Variant) string {
	return fmt.Sprintf("variant %q of %s", v.Name, t.Name)
}

// tags rejects a tag value that two variants have, or that a variant has and
// the protocol version lists as removed: decoding would pick one by position.
func (c *checker) tags(t *ir.Type) {
	u := t.Union
	seen := map[string]*ir.Variant{}
	for _, v := range u.Variants {
		if prev, ok := seen[v.Tag]; ok {
			c.errorf(v.Gate, where(v, t), "%s %q is the tag of two variants of %s (the other at %s)", u.Tag, v.Tag, t.Name, where(prev, t))
			continue
		}
		seen[v.Tag] = v
	}
	for _, r := range u.Removed {
		if v, ok := seen[r.Tag]; ok {
			c.errorf(v.Gate, where(v, t), "%s %q of %s is listed as removed, but the schema has a variant with it", u.Tag, r.Tag, t.Name)
		}
	}
}

// untagged rejects alternatives the decoder cannot tell apart: it picks by
// the kind of JSON value, then, among objects (or arrays of objects), by the
// required keys present. Two alternatives of one scalar kind, or two object
// alternatives with the same required keys, leave the choice to position.
// Alternatives that are the params or results of JSON-RPC methods are the
// exception: in a message the method tells them apart (older schemas list
// them in unions such as AgentRequest).
func (c *checker) untagged(t *ir.Type) {
	seen := map[string]*ir.Variant{}
	for _, v := range t.Union.Variants {
		if c.methodPayload(v) {
			continue
		}
		key := string(v.JSON)
		if v.JSON == ir.KindArray && v.Value != nil && v.Value.Elem != nil {
			key += " of " + elemKind(*v.Value.Elem) // arrays of other items are tried in turn
		}
		if v.JSON == ir.KindObject || v.JSON == ir.KindArray {
			req := append([]string(nil), v.Required...)
			sort.Strings(req)
			key += " with " + strings.Join(req, ",")
		}
		if prev, ok := seen[key]; ok {
			c.errorf(v.Gate, where(v, t), "alternatives %q and %q of %s cannot be told apart: %s; give them different required properties or a tag", prev.Name, v.Name, t.Name, ambiguity(v))
			continue
		}
		seen[key] = v
	}
}

// methodPayload reports whether v is exactly the params or result type of a
// JSON-RPC method.
func (c *checker) methodPayload(v *ir.Variant) bool {
	if c.methodTypes == nil {
		c.methodTypes = map[*ir.Type]bool{}
		for _, m := range c.p.Methods {
			c.methodTypes[m.Params] = true
			if m.Result != nil {
				c.methodTypes[m.Result] = true
			}
		}
	}
	return len(v.Fields) == 0 && len(v.Embeds) == 1 && c.methodTypes[v.Embeds[0]]
}

// elemKind tells array items apart by the JSON they accept.
func elemKind(r ir.Ref) string {
	switch r.Kind {
	case ir.RefNamed:
		return "named " + r.Type.Name
	case ir.RefArray:
		return "array of " + elemKind(*r.Elem)
	case ir.RefMap:
		return "object"
	}
	return fmt.Sprint(r.Kind)
}

func ambiguity(v *ir.Variant) string {
	switch {
	case v.JSON == ir.KindArray && len(v.Required) == 0:
		return "both accept a JSON array of the same items"
	case v.JSON != ir.KindObject && v.JSON != ir.KindArray:
		return fmt.Sprintf("both accept a JSON %s", v.JSON)
	case len(v.Required) == 0:
		return fmt.Sprintf("both accept a JSON %s with no required property", v.JSON)
	}
	return fmt.Sprintf("both accept a JSON %s with the required properties %s", v.JSON, strings.Join(v.Required, ", "))
}

// shapes rejects the unions whose variants the emitter has no encoding for:
// a tag or shared fields need every variant to be an object, and a variant
// made of several parts needs each payload to be an object, a struct when
// there are several.
func (c *checker) shapes(t *ir.Type) {
	u := t.Union
	if c.shape.self[t] {
		c.errorf(t.Gate, t.Pointer, "union %s is a payload of one of its own variants; acpgen cannot encode that", t.Name)
		return
	}
	if !u.Objects && (len(t.Fields) > 0 || u.Tag != "") {
		for _, v := range u.All() {
			if !c.shape.objectVariant(t, v) {
				what := "shared properties"
				if u.Tag != "" {
					what = fmt.Sprintf("the tag %q", u.Tag)
				}
				c.errorf(v.Gate, where(v, t), "%s is not an object, so it cannot carry %s", variantName(t, v), what)
			}
		}
		return
	}
	for _, v := range u.All() {
		if !v.IsObject() || (u.Tag == "" && len(v.Fields) == 0 && len(v.Embeds) == 1) {
			continue
		}
		// A variant of several parts (payloads, own members) decodes each
		// payload's members in turn, which only structs have one by one.
		parts := len(v.Embeds) > 1 || (len(v.Embeds) == 1 && len(v.Fields) > 0)
		for _, e := range v.Embeds {
			if !c.shape.hasMembers(e) || (parts && !isStruct(e)) {
				c.errorf(v.Gate, where(v, t), "%s combines %s, which is not an object with properties of its own, with other members", variantName(t, v), e.Name)
			}
		}
	}
}

// isStruct reports whether t is a struct, or another name for one.
func isStruct(t *ir.Type) bool {
	for seen := map[*ir.Type]bool{}; !seen[t]; seen[t] = true {
		if t.Kind != ir.Named || t.Underlying.Kind != ir.RefNamed {
			break
		}
		t = t.Underlying.Type
	}
	return t.Kind == ir.Struct
}
