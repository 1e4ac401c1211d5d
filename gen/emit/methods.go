package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// constructors are the functions that return a new params or result value
// by method name.
var constructors = []struct {
	name, what string
	pick       func(*ir.Method) *ir.Type
}{
	{"NewRequestParams", "a new params value for the request method", func(m *ir.Method) *ir.Type {
		if m.Kind == ir.Request {
			return m.Params
		}
		return nil
	}},
	{"NewNotificationParams", "a new params value for the notification method", func(m *ir.Method) *ir.Type {
		if m.Kind == ir.Notification {
			return m.Params
		}
		return nil
	}},
	{"NewResult", "a new result value for the request method", func(m *ir.Method) *ir.Type { return m.Result }},
}

// methods emits the stable method name constants and the constructors of
// params and result types by method name.
func (e *emitter) methods(f *jen.File) {
	var defs []jen.Code
	for _, m := range e.p.Methods {
		if !m.Unstable {
			defs = append(defs, e.methodConst(m)...)
		}
	}
	f.Comment("Names of the protocol's JSON-RPC methods.")
	f.Const().Defs(defs...)
	f.Line()
	for _, c := range constructors {
		e.constructor(f, c.name, c.what, c.pick)
	}
	e.sides(f)
}

// methodConst declares the constant of m's method name, with the request
// and the notification of that name, once: for the first of them in p.
func (e *emitter) methodConst(m *ir.Method) []jen.Code {
	var parts []string
	for _, o := range e.p.Methods {
		if o.Name != m.Name {
			continue
		}
		if o.Kind == m.Kind && o != m {
			continue
		}
		if len(parts) == 0 && o != m {
			return nil // declared with the first
		}
		kind := "request"
		if o.Kind == ir.Notification {
			kind = "notification"
		}
		part := fmt.Sprintf("a %s handled by the %s side, with params %s", kind, o.Side, o.Params.GoName)
		if o.Result != nil {
			part += fmt.Sprintf(" and result %s", o.Result.GoName)
		}
		parts = append(parts, part)
	}
	doc := fmt.Sprintf("%s is the %q method: %s.", m.Const, m.Name, strings.Join(parts, "; and "))
	return []jen.Code{comment("", doc), jen.Id(m.Const).Op("=").Lit(m.Name)}
}

/*
	func NewRequestParams(method string) any {
		switch method {
		case MethodInitialize:
			return new(InitializeRequest)
		}
		if newValue := newRequestParamsUnstable[method]; newValue != nil {
			return newValue()
		}
		return nil
	}
*/
func (e *emitter) constructor(f *jen.File, name, what string, pick func(*ir.Method) *ir.Type) {
	var cases []jen.Code
	unstable := false
	for _, m := range e.p.Methods {
		if t := pick(m); t != nil {
			if m.Unstable {
				unstable = true
				continue
			}
			cases = append(cases, jen.Case(jen.Id(m.Const)).Block(jen.Return(jen.New(jen.Id(t.GoName)))))
		}
	}
	body := []jen.Code{jen.Switch(jen.Id("method")).Block(cases...)}
	if unstable {
		body = append(body, jen.If(jen.Id("newValue").Op(":=").Id(e.p.MethodTables[name]).Index(jen.Id("method")), jen.Id("newValue").Op("!=").Nil()).Block(
			jen.Return(jen.Id("newValue").Call())))
	}
	body = append(body, jen.Return(jen.Nil()))
	f.Comment(fmt.Sprintf("%s returns a pointer to %s, ready for json.Unmarshal, or nil if the method is not part of the schema.", name, what))
	f.Func().Id(name).Params(jen.Id("method").String()).Any().Block(body...)
	f.Line()
	if unstable {
		f.Comment(fmt.Sprintf("%s holds the methods of the unstable surface that build tags include.", e.p.MethodTables[name]))
		f.Var().Id(e.p.MethodTables[name]).Op("=").Map(jen.String()).Func().Params().Any().Values()
		f.Line()
	}
}

// unstableMethods emits the method constants of methods (those of one gate
// key) and registers their types with the constructors.
func (e *emitter) unstableMethods(f *jen.File, methods []*ir.Method) {
	var defs, reg []jen.Code
	for _, m := range methods {
		defs = append(defs, e.methodConst(m)...)
		reg = append(reg, e.sideRegistrations(m)...)
		for _, c := range constructors {
			if t := c.pick(m); t != nil {
				reg = append(reg, jen.Id(e.p.MethodTables[c.name]).Index(jen.Id(m.Const)).Op("=").Func().Params().Any().Block(
					jen.Return(jen.New(jen.Id(t.GoName)))))
			}
		}
	}
	if len(defs) == 0 {
		return
	}
	f.Const().Defs(defs...)
	f.Line()
	f.Func().Id("init").Params().Block(reg...)
	f.Line()
}
