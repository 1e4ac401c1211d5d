package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// methods emits the method name constants and constructors of the params and
// result types by method name.
func (e *emitter) methods(f *jen.File) error {
	var defs []jen.Code
	for _, m := range e.p.Methods {
		kind := "request"
		if m.Kind == ir.Notification {
			kind = "notification"
		}
		doc := fmt.Sprintf("%s is the %q %s, handled by the %s side; its params are %s", m.GoName, m.Name, kind, m.Side, m.Params.GoName)
		if m.Result != nil {
			doc += fmt.Sprintf(" and its result %s", m.Result.GoName)
		}
		defs = append(defs, comment("", doc+"."), jen.Id(m.GoName).Op("=").Lit(m.Name))
	}
	f.Comment("Names of the protocol's JSON-RPC methods.")
	f.Const().Defs(defs...)
	f.Line()
	e.constructor(f, "NewRequestParams", "a new params value for the request method", func(m *ir.Method) *ir.Type {
		if m.Kind == ir.Request {
			return m.Params
		}
		return nil
	})
	e.constructor(f, "NewNotificationParams", "a new params value for the notification method", func(m *ir.Method) *ir.Type {
		if m.Kind == ir.Notification {
			return m.Params
		}
		return nil
	})
	e.constructor(f, "NewResult", "a new result value for the request method", func(m *ir.Method) *ir.Type { return m.Result })
	return nil
}

/*
	func NewRequestParams(method string) any {
		switch method {
		case MethodInitialize:
			return new(InitializeRequest)
		}
		return nil
	}
*/
func (e *emitter) constructor(f *jen.File, name, what string, pick func(*ir.Method) *ir.Type) {
	var cases []jen.Code
	for _, m := range e.p.Methods {
		if t := pick(m); t != nil {
			cases = append(cases, jen.Case(jen.Id(m.GoName)).Block(jen.Return(jen.New(jen.Id(t.GoName)))))
		}
	}
	f.Comment(fmt.Sprintf("%s returns a pointer to %s, ready for json.Unmarshal, or nil if the method is not part of the schema.", name, what))
	f.Func().Id(name).Params(jen.Id("method").String()).Any().Block(
		jen.Switch(jen.Id("method")).Block(cases...),
		jen.Return(jen.Nil()),
	)
	f.Line()
}
