package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/acpgen/acpgen/gen/ir"
)

// sideFuncs are the functions that say which side handles a method, from
// the schema's x-side: "agent", "client", "protocol" (either) or "proxy".
var sideFuncs = []struct {
	name, what string
	kind       ir.MethodKind
}{
	{"RequestSide", "request", ir.Request},
	{"NotificationSide", "notification", ir.Notification},
}

/*
	func RequestSide(method string) string {
		switch method {
		case MethodInitialize:
			return "agent"
		}
		return requestSideUnstable[method]
	}
*/
func (e *emitter) sides(f *jen.File) {
	for _, s := range sideFuncs {
		var cases []jen.Code
		unstable := false
		for _, m := range e.p.Methods {
			if m.Kind != s.kind {
				continue
			}
			if m.Unstable {
				unstable = true
				continue
			}
			cases = append(cases, jen.Case(jen.Id(m.Const)).Block(jen.Return(jen.Lit(m.Side))))
		}
		fallback := jen.Return(jen.Lit(""))
		if unstable {
			fallback = jen.Return(jen.Id(e.p.MethodTables[s.name]).Index(jen.Id("method")))
		}
		f.Comment(fmt.Sprintf("%s returns the side that handles the %s method: \"agent\", \"client\",", s.name, s.what))
		f.Comment("\"protocol\" (either side) or \"proxy\"; \"\" if the method is not part of the schema.")
		f.Func().Id(s.name).Params(jen.Id("method").String()).String().Block(jen.Switch(jen.Id("method")).Block(cases...), fallback)
		f.Line()
		if unstable {
			f.Comment(fmt.Sprintf("%s holds the sides of the methods that build tags include.", e.p.MethodTables[s.name]))
			f.Var().Id(e.p.MethodTables[s.name]).Op("=").Map(jen.String()).String().Values()
			f.Line()
		}
	}
}

// sideRegistrations registers the side of an unstable method.
func (e *emitter) sideRegistrations(m *ir.Method) []jen.Code {
	var out []jen.Code
	for _, s := range sideFuncs {
		if m.Kind == s.kind {
			out = append(out, jen.Id(e.p.MethodTables[s.name]).Index(jen.Id(m.Const)).Op("=").Lit(m.Side))
		}
	}
	return out
}
