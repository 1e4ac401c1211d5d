package names

import (
	"fmt"
	"strings"

	"github.com/acpgen/acpgen/gen/ir"
)

// connMembers are the methods every connection has of its own (the runtime's)
// and the methods of ExtMethodHandler and ExtNotificationHandler: no
// protocol method may take these names.
var connMembers = []string{"Close", "Done", "Err", "ExtMethod", "ExtNotification"}

// methodName returns the Go name of a JSON-RPC method, used for its handler
// and for its outbound call on a connection: the name of its params type
// without the suffix "Request" or "Notification" (PromptRequest → Prompt,
// CancelNotification → Cancel). Where that leaves only the method's namespace
// (SessionNotification for "session/update" → Session), it is the whole
// method name instead (SessionUpdate).
func methodName(method, paramsType string) string {
	base := paramsType
	for _, suffix := range []string{"Request", "Notification"} {
		if s, ok := strings.CutSuffix(base, suffix); ok && s != "" {
			base = s
			break
		}
	}
	name := exported(base)
	if ns, _, ok := strings.Cut(method, "/"); (ok && name == exported(ns)) || name == "" {
		return exported(method)
	}
	return name
}

// methods names the methods of p: each method's Go name, and the constant
// that holds its name, "Method" and the Go name. A request and a
// notification of the same name share one constant, named after the
// request. When one side handles both, the notification's Go name gets the
// suffix "Notification" so that the side's methods stay apart.
func (a *assigner) methods(p *ir.Package) {
	reserved := map[string]bool{}
	for _, n := range connMembers {
		reserved[n] = true
	}
	consts := map[string]string{} // method name → constant
	for _, m := range p.Methods {
		o := origin{what: fmt.Sprintf("method %q", m.Name), file: p.FileOf(m.Gate), pointer: m.Params.Pointer}
		m.GoName = methodName(m.Name, m.Params.Name)
		if !valid(m.GoName) {
			a.errs.Addf(o.file, o.pointer, "%s gives no valid Go name (%q)", o.what, m.GoName)
			continue
		}
		if reserved[m.GoName] {
			a.errs.Addf(o.file, o.pointer, "the Go name %s of %s is a method of every connection", m.GoName, o.what)
			continue
		}
		if m.Kind == ir.Notification {
			for _, r := range p.Methods {
				if r.Name == m.Name && r.Kind == ir.Request && r.Side == m.Side {
					m.GoName += "Notification"
				}
			}
		}
		if c, ok := consts[m.Name]; ok {
			m.Const = c
			continue
		}
		if a.claim(a.top, "Method"+m.GoName, o, &m.Const) {
			consts[m.Name] = m.Const
		}
	}
}

// sides names the interfaces and connections of p's sides: the side's
// interface ("Agent"), one interface per optional method, the side name and
// the method's Go name ("AgentLoadSession"), and the connection that serves
// the side ("AgentSideConnection", "NewAgentSideConnection"), and the
// side's routing tables. The connection runtime's own names are claimed
// with the other runtime files'.
func (a *assigner) sides(p *ir.Package) {
	if len(p.Sides) == 0 {
		return
	}
	for _, s := range p.Sides {
		what := "the " + s.Name + " side"
		side := exported(s.Name)
		for _, c := range []struct {
			name string
			dst  *string
		}{{side, &s.GoName}, {side + "SideConnection", &s.Conn}, {"New" + side + "SideConnection", &s.NewConn}, {"New" + side + "SideConnectionFunc", &s.NewConnFunc}} {
			a.claim(a.top, c.name, origin{what: what}, c.dst)
		}
		if s.GoName != "" { // else the side's name was taken: reported above
			a.claim(a.top, routes(s.GoName, false), origin{what: "a routing table of " + what, internal: true}, &s.RequestRoutes)
			a.claim(a.top, routes(s.GoName, true), origin{what: "a routing table of " + what, internal: true}, &s.NotificationRoutes)
		}
		for _, m := range s.Handles {
			if !m.Required {
				a.claim(a.top, s.GoName+m.GoName, origin{what: what + " method " + m.Name, file: p.FileOf(m.Gate), pointer: m.Params.Pointer}, &m.Interface)
			}
		}
	}
}
