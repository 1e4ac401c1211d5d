package names

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/acpgen/acpgen/gen/diag"
	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/templates"
)

// Assign fills in the Go identifiers of every type, field, variant, enum
// constant and method of p, and claims every other identifier the generated
// package declares: the runtime files' names (parsed from their sources),
// the functions of the methods file, Ptr and the union constructors, and the
// names the emitter derives from types (variant interfaces, registries of
// unstable variants, structs of unstable fields). Type and member names go
// through the stutter rule (destutter, join); the docs are converted last. Collisions are resolved here and nowhere else: a variant
// or constant whose natural name is taken gets the suffix "Variant" or
// "Value"; any other clash is an error that names both claimants. All
// problems are reported together, as a *diag.List.
func Assign(p *ir.Package) error {
	a := assign(p)
	docs(p)
	return a.errs.Err()
}

// Claims assigns the names of p as Assign does (leaving the docs as they
// are) and returns what claimed each
// identifier: of the package block, and of the members (fields and methods)
// of each type by Go name. Tests compare it with the generated code.
func Claims(p *ir.Package) (top map[string]string, members map[string]map[string]string, err error) {
	a := assign(p)
	top = map[string]string{}
	for name, o := range a.top {
		top[name] = o.String()
	}
	members = map[string]map[string]string{}
	for typ, s := range a.scopes {
		members[typ] = map[string]string{}
		for name, o := range s {
			members[typ][name] = o.String()
		}
	}
	return top, members, a.errs.Err()
}

func assign(p *ir.Package) *assigner {
	a := &assigner{p: p, top: scope{}, scopes: map[string]scope{}}
	a.runtime()
	a.methodFuncs()
	for _, t := range p.Types {
		if !long(t) {
			a.claim(a.top, typeName(t), a.typeOrigin(t), &t.GoName)
		}
	}
	// Inline types nested deep are named after the others (inline.go).
	var inline inlineNamer
	taken := func(name string) bool { _, ok := a.top[name]; return ok }
	for _, t := range p.Types {
		if long(t) {
			a.claim(a.top, inline.shortName(t, taken), a.typeOrigin(t), &t.GoName)
		}
	}
	for _, t := range p.Types {
		if t.GoName != "" {
			a.members(t)
		}
	}
	a.claim(a.top, Ptr, origin{what: "the Ptr helper"}, nil)
	a.claim(a.top, "definitions", origin{what: "the table of definitions of the generated tests", internal: true}, nil)
	a.constructors(p)
	a.methods(p)
	a.sides(p)
	a.derived()
	a.shortcuts(p)
	return a
}

// origin is what claims a name, and where the schema has it.
type origin struct {
	what          string
	file, pointer string // "" for names of the generator alone
	// internal: the name is unexported by design (derived from a type's).
	internal bool
}

func (o origin) String() string {
	if o.file == "" && o.pointer == "" {
		return o.what
	}
	return fmt.Sprintf("%s (%s#%s)", o.what, o.file, o.pointer)
}

// scope is one name space of the generated package: the package block, or
// the fields and methods of one type.
type scope map[string]origin

type assigner struct {
	p      *ir.Package
	top    scope
	scopes map[string]scope // by the type's Go name
	errs   diag.List
}

// claim records name for o in s and stores it in dst; a name that is not a
// usable identifier or that s already has is an error at o.
func (a *assigner) claim(s scope, name string, o origin, dst *string) bool {
	if !token.IsIdentifier(name) || (!o.internal && !valid(name)) {
		a.errs.Addf(o.file, o.pointer, "%s gives no valid Go name (%q)", o.what, name)
		return false
	}
	if prev, ok := s[name]; ok {
		a.errs.Addf(o.file, o.pointer, "the Go name %s of %s is already taken by %s", name, o.what, prev)
		return false
	}
	s[name] = o
	if dst != nil {
		*dst = name
	}
	return true
}

// claimOr claims name, or name+suffix when name is taken.
func (a *assigner) claimOr(s scope, name, suffix string, o origin, dst *string) bool {
	if _, ok := s[name]; ok {
		name += suffix
	}
	return a.claim(s, name, o, dst)
}

// runtime claims the top-level names of the runtime files.
func (a *assigner) runtime() {
	for _, n := range runtimeDecls() {
		if n.When == templates.WithConn && len(a.p.Sides) == 0 {
			continue
		}
		if n.Receiver == "" {
			a.top[n.Name] = origin{what: fmt.Sprintf("%s, declared by the runtime file %s", n.Name, n.File)}
		}
	}
}

// runtimeMethods claims in s the methods the runtime files declare on the
// type called goName (the JSON-RPC layer's Error.Error, for one).
func runtimeMethods(s scope, goName string) {
	for _, n := range runtimeDecls() {
		if n.Receiver == goName {
			s[n.Name] = origin{what: fmt.Sprintf("the method %s.%s of the runtime file %s", goName, n.Name, n.File)}
		}
	}
}

// methodScope starts the member scope of the type called goName with its methods.
func (a *assigner) methodScope(goName string, methods ...[]string) scope {
	s := scope{}
	a.scopes[goName] = s
	for _, list := range methods {
		for _, m := range list {
			s[m] = origin{what: fmt.Sprintf("the method %s.%s that acpgen generates", goName, m)}
		}
	}
	runtimeMethods(s, goName)
	return s
}

func (a *assigner) typeOrigin(t *ir.Type) origin {
	var what string
	switch {
	case long(t):
		what = "an inline type nested deep in its definition"
	case t.Parent != nil || !strings.HasPrefix(t.Pointer, "/$defs/") || strings.Count(t.Pointer, "/") != 2:
		what = fmt.Sprintf("the inline type %s", t.Name)
	default:
		what = fmt.Sprintf("definition %q", t.Name)
	}
	return origin{what: what, file: a.p.FileOf(t.Gate), pointer: t.Pointer}
}

func (a *assigner) members(t *ir.Type) {
	o := a.typeOrigin(t)
	switch t.Kind {
	case ir.Struct:
		s := a.methodScope(t.GoName, typeMethods, objectMethods)
		if t.Extra {
			a.claim(s, "Extra", origin{what: "the Extra field that keeps the unnamed members of " + t.GoName}, nil)
		}
		a.extensions(s, t)
		a.fields(s, t.GoName, t.Fields)
	case ir.Enum:
		a.methodScope(t.GoName, typeMethods, enumMethods) // and no fields
		for _, v := range t.Enum.Values {
			vo := origin{what: fmt.Sprintf("value %q of %s", v.Name, t.GoName), file: a.p.FileOf(v.Gate), pointer: t.Pointer}
			a.claimOr(a.top, join(t.GoName, v.Name), "Value", vo, &v.GoName)
		}
	case ir.Union:
		a.union(t, o)
	default:
		a.methodScope(t.GoName, typeMethods)
	}
}

func (a *assigner) union(t *ir.Type, o origin) {
	u := t.Union
	tagged := u.Tag != ""
	methods := []string{}
	if tagged {
		methods = append(methods, "Tag")
	}
	s := a.methodScope(t.GoName, typeMethods, objectMethods, methods)
	a.claim(s, "Value", origin{what: "the field Value that holds the variant of " + t.GoName}, nil)
	a.extensions(s, t)
	a.fields(s, t.GoName, t.Fields)
	u.Marker = marker(t.GoName, tagged)
	a.claim(a.top, variantInterface(t.GoName), origin{what: "the interface of the variants of " + t.GoName, file: o.file, pointer: o.pointer}, &u.Interface)
	for _, v := range u.All() {
		vo := origin{what: fmt.Sprintf("variant %q of %s", v.Name, t.GoName), file: a.p.FileOf(v.Gate), pointer: v.Pointer}
		if vo.pointer == "" {
			vo.pointer = t.Pointer
		}
		if !a.claimOr(a.top, join(t.GoName, v.Name), "Variant", vo, &v.GoName) {
			continue
		}
		var vs scope
		if v.IsObject() {
			vs = a.methodScope(v.GoName, typeMethods, objectMethods, []string{u.Marker})
		} else {
			vs = a.methodScope(v.GoName, typeMethods, []string{u.Marker})
		}
		if v == u.Fallback {
			extra := []string{"Raw"}
			if tagged {
				extra = append(extra, "Tag", "IsCustom")
			}
			for _, name := range extra {
				vs[name] = origin{what: fmt.Sprintf("the %s member of %s, which keeps an unknown variant", name, v.GoName)}
			}
		}
		for _, e := range v.Embeds {
			if e.GoName != "" {
				a.claim(vs, e.GoName, origin{what: fmt.Sprintf("the embedded %s of %s", e.GoName, v.GoName)}, nil)
			}
		}
		if inner := v.InnerUnion(); inner != nil && tagged {
			a.claim(vs, "Tag", origin{what: fmt.Sprintf("the Tag method of %s, its tag in %s", v.GoName, t.GoName)}, nil)
			a.claim(vs, exported(inner.Union.Tag), origin{what: fmt.Sprintf("the method of %s that returns the %q of the union it holds", v.GoName, inner.Union.Tag)}, &v.InnerTag)
		}
		a.fields(vs, v.GoName, v.Fields)
	}
}

// fields names the properties of an object; the scope holds the type's
// methods and other members.
func (a *assigner) fields(s scope, owner string, fields []*ir.Field) {
	for _, f := range fields {
		fo := origin{what: fmt.Sprintf("property %q of %s", f.JSONName, owner), file: a.p.FileOf(f.Gate), pointer: f.Pointer}
		a.claim(s, exported(f.JSONName), fo, &f.GoName)
	}
}

// extensions claims the embedded structs that hold the unstable fields of a
// stable type, one per gate key, in the type and in the package.
func (a *assigner) extensions(s scope, t *ir.Type) {
	for _, key := range t.ExtensionKeys() {
		o := a.internal(t, fmt.Sprintf("the struct of the fields of %s that %s adds", t.GoName, strings.ReplaceAll(key, "+", " or ")))
		name := extension(t.GoName, key)
		a.claim(s, name, o, nil)
		a.claim(a.top, name, o, nil)
		if t.Extensions == nil {
			t.Extensions = map[string]string{}
		}
		t.Extensions[key] = name
	}
}

// derived claims the package-level names the emitter derives from types:
// shared-field decoders, unstable registries and member lists of unions.
func (a *assigner) derived() {
	for _, t := range a.p.Types {
		if t.Kind != ir.Union || t.GoName == "" || t.Union == nil {
			continue
		}
		u := t.Union
		u.Shared, u.Registry, u.Members = sharedFields(t.GoName), registry(t.GoName), unionMembers(t.GoName)
		if len(t.Fields) > 0 {
			a.claim(a.top, u.Shared, a.internal(t, "the decoder of the shared fields of "+t.GoName), nil)
		}
		if t.GatedVariants() {
			a.claim(a.top, u.Registry, a.internal(t, "the registry of the unstable variants of "+t.GoName), nil)
		}
		if u.Tag != "" {
			a.claim(a.top, u.Members, a.internal(t, "the members the variants of "+t.GoName+" leave to it"), nil)
		}
	}
}

// internal is the origin of a name derived from type t's.
func (a *assigner) internal(t *ir.Type, what string) origin {
	return origin{what: what, file: a.p.FileOf(t.Gate), pointer: t.Pointer, internal: true}
}

// methodFuncs claims the functions of the methods file (every package has
// them) and their tables of unstable methods, before any type, so that a
// definition named like one of them is the error.
func (a *assigner) methodFuncs() {
	unstable := false
	for _, m := range a.p.Methods {
		unstable = unstable || m.Unstable
	}
	a.p.MethodTables = map[string]string{}
	for _, fn := range methodFuncNames {
		a.claim(a.top, fn, origin{what: "the function " + fn + " of the methods file"}, nil)
		a.p.MethodTables[fn] = methodTable(fn)
		if unstable {
			a.claim(a.top, methodTable(fn), origin{what: "the table of unstable methods of " + fn, internal: true}, nil)
		}
	}
}
