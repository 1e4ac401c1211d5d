// Package api computes the API surface of a generated package as its users
// see it, in the manner of Go's own api/*.txt files: one line per exported
// type, field, method, constant, function and union variant. It loads the
// compiled code with go/packages once per set of build tags, so that each
// line can be tagged with the unstable feature that brings it in.
package api

import (
	"fmt"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// packageSurface returns the sorted API lines of the package in dir built with tags.
func packageSurface(dir string, tags []string) ([]string, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax,
		Dir:  dir,
	}
	if len(tags) > 0 {
		cfg.BuildFlags = []string{"-tags=" + strings.Join(tags, ",")}
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("%s: %d packages", dir, len(pkgs))
	}
	p := pkgs[0]
	if len(p.Errors) > 0 {
		return nil, fmt.Errorf("%s with tags %v: %v", dir, tags, p.Errors[0])
	}
	return lines(p.Types), nil
}

func lines(pkg *types.Package) []string {
	qual := func(other *types.Package) string {
		if other == pkg {
			return ""
		}
		return other.Name()
	}
	prefix := "pkg " + pkg.Name() + ", "
	var out []string
	add := func(format string, args ...any) { out = append(out, prefix+fmt.Sprintf(format, args...)) }
	scope := pkg.Scope()
	var ifaces []*types.TypeName
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			add("const %s %s = %s", name, types.TypeString(obj.Type(), qual), obj.Val().ExactString())
		case *types.Var:
			add("var %s %s", name, types.TypeString(obj.Type(), qual))
		case *types.Func:
			add("func %s%s", name, strings.TrimPrefix(types.TypeString(obj.Type(), qual), "func"))
		case *types.TypeName:
			typeLines(add, obj, qual)
			if _, ok := obj.Type().Underlying().(*types.Interface); ok {
				ifaces = append(ifaces, obj)
			}
		}
	}
	for _, iface := range ifaces {
		variantLines(add, scope, iface, qual)
	}
	sort.Strings(out)
	return out
}

func typeLines(add func(string, ...any), obj *types.TypeName, qual types.Qualifier) {
	name := obj.Name()
	if tp, ok := obj.Type().(*types.Named); ok && tp.TypeParams().Len() > 0 {
		var params []string
		for i := 0; i < tp.TypeParams().Len(); i++ {
			params = append(params, tp.TypeParams().At(i).Obj().Name()+" "+types.TypeString(tp.TypeParams().At(i).Constraint(), qual))
		}
		name += "[" + strings.Join(params, ", ") + "]"
	}
	if obj.IsAlias() {
		// The type it stands for, as declared: ExtNotification = json.RawMessage.
		rhs := obj.Type()
		if a, ok := rhs.(*types.Alias); ok {
			rhs = a.Rhs()
		}
		add("type %s = %s", name, types.TypeString(rhs, qual))
		return
	}
	under := obj.Type().Underlying()
	switch u := under.(type) {
	case *types.Struct:
		add("type %s struct", name)
		fieldLines(add, name, u, qual)
	case *types.Interface:
		add("type %s interface", name)
	default:
		add("type %s %s", name, types.TypeString(under, qual))
	}
	methodLines(add, obj, name, qual)
}

// methodLines lists the exported methods of obj as go doc shows them: its
// own, and those promoted from an embedded type that is not exported (the
// connections' Close, Done, Err, ExtMethod and ExtNotification, from the
// unexported connection they embed), whose type a reader cannot look up.
// A method in the method set of the value type has the value receiver.
func methodLines(add func(string, ...any), obj *types.TypeName, name string, qual types.Qualifier) {
	values := types.NewMethodSet(obj.Type())
	mset := types.NewMethodSet(types.NewPointer(obj.Type()))
	for i := 0; i < mset.Len(); i++ {
		sel := mset.At(i)
		m := sel.Obj()
		if !m.Exported() {
			continue
		}
		sig, _ := m.Type().(*types.Signature)
		recv := name
		if len(sel.Index()) > 1 {
			if sig == nil || declaredExported(sig) {
				continue // promoted from an exported type, which lists it
			}
			if values.Lookup(m.Pkg(), m.Name()) == nil {
				recv = "*" + name
			}
		} else if sig != nil {
			if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
				recv = "*" + name
			}
		}
		add("method (%s) %s%s", recv, m.Name(), strings.TrimPrefix(types.TypeString(m.Type(), qual), "func"))
	}
}

// declaredExported reports whether the receiver type that method signature
// sig was declared on is exported.
func declaredExported(sig *types.Signature) bool {
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Exported()
	}
	return true
}

// fieldLines lists exported fields, and the fields that unexported embedded
// structs (the unstable extensions) promote, as fields of the outer type.
func fieldLines(add func(string, ...any), name string, s *types.Struct, qual types.Qualifier) {
	for i := 0; i < s.NumFields(); i++ {
		f := s.Field(i)
		switch {
		case f.Embedded() && !f.Exported():
			if inner, ok := f.Type().Underlying().(*types.Struct); ok {
				fieldLines(add, name, inner, qual)
			}
		case f.Embedded():
			add("type %s struct, embedded %s", name, types.TypeString(f.Type(), qual))
		case f.Exported():
			add("type %s struct, %s %s", name, f.Name(), types.TypeString(f.Type(), qual))
		}
	}
}

// variantLines lists the types that implement a sealed union interface.
func variantLines(add func(string, ...any), scope *types.Scope, iface *types.TypeName, qual types.Qualifier) {
	it := iface.Type().Underlying().(*types.Interface)
	sealed := false
	for i := 0; i < it.NumMethods(); i++ {
		if !it.Method(i).Exported() {
			sealed = true
		}
	}
	if !sealed {
		return
	}
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || tn == iface {
			continue
		}
		for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if types.Implements(t, it) {
				add("variant %s %s", iface.Name(), types.TypeString(t, qual))
				break
			}
		}
	}
}
