package names

import (
	"fmt"
	"strings"

	"github.com/acpgen/acpgen/gen/ir"
)

// ConnRuntime lists the exported identifiers of the connection runtime
// (templates/conn.go.tmpl), which every package with sides holds. They are
// claimed before the schema's names so that a schema type of the same name
// is reported instead of failing to compile.
var ConnRuntime = []string{
	"ErrConnectionClosed",
	"ExtMethodHandler",
	"ExtNotificationHandler",
	"NewAuthRequiredError",
	"NewInternalError",
	"NewInvalidParamsError",
	"NewInvalidRequestError",
	"NewMethodNotFoundError",
	"NewParseError",
	"NewRequestCancelledError",
	"NewResourceNotFoundError",
}

// ConnMembers are the methods every connection has of its own (the runtime's)
// and the methods of ExtMethodHandler and ExtNotificationHandler: no
// protocol method may take these names.
var ConnMembers = []string{"Done", "Err", "ExtMethod", "ExtNotification"}

// MethodName returns the Go name of a JSON-RPC method, used for its handler
// and for its outbound call on a connection: the name of its params type
// without the suffix "Request" or "Notification" (PromptRequest → Prompt,
// CancelNotification → Cancel). Where that leaves only the method's namespace
// (SessionNotification for "session/update" → Session), it is the whole
// method name instead (SessionUpdate).
func MethodName(method, paramsType string) string {
	base := paramsType
	for _, suffix := range []string{"Request", "Notification"} {
		if s, ok := strings.CutSuffix(base, suffix); ok && s != "" {
			base = s
			break
		}
	}
	name := Exported(base)
	if ns, _, ok := strings.Cut(method, "/"); (ok && name == Exported(ns)) || name == "" {
		return Exported(method)
	}
	return name
}

// methods names the methods of p: each method's Go name, and the constant
// that holds its name, "Method" and the Go name. A request and a
// notification of the same name share one constant, named after the
// request. When one side handles both, the notification's Go name gets the
// suffix "Notification" so that the side's methods stay apart.
func (a *assigner) methods(p *ir.Package) error {
	reserved := map[string]bool{}
	for _, n := range ConnMembers {
		reserved[n] = true
	}
	for _, m := range p.Methods {
		m.GoName = MethodName(m.Name, m.Params.Name)
		if !Valid(m.GoName) {
			return fmt.Errorf("method %s: %q is not a valid Go identifier", m.Name, m.GoName)
		}
		if reserved[m.GoName] {
			return fmt.Errorf("method %s: Go name %s is a method of every connection", m.Name, m.GoName)
		}
	}
	consts := map[string]string{} // method name → constant
	for _, m := range p.Methods {
		if m.Kind == ir.Notification {
			for _, o := range p.Methods {
				if o.Name == m.Name && o.Kind == ir.Request && o.Side == m.Side {
					m.GoName += "Notification"
				}
			}
		}
		if c, ok := consts[m.Name]; ok {
			m.Const = c
			continue
		}
		if err := a.claim("Method"+m.GoName, "method "+m.Name, &m.Const); err != nil {
			return err
		}
		consts[m.Name] = m.Const
	}
	return nil
}

// sides names the interfaces and connections of p's sides: the side's
// interface ("Agent"), one interface per optional method, the side name and
// the method's Go name ("AgentLoadSession"), and the connection that serves
// the side ("AgentSideConnection", "NewAgentSideConnection"). The runtime's
// own names are claimed first.
func (a *assigner) sides(p *ir.Package) error {
	if len(p.Sides) == 0 {
		return nil
	}
	for _, n := range ConnRuntime {
		var dst string
		if err := a.claim(n, "the connection runtime", &dst); err != nil {
			return err
		}
	}
	for _, s := range p.Sides {
		what := "the " + s.Name + " side"
		side := Exported(s.Name)
		for _, c := range []struct {
			name string
			dst  *string
		}{{side, &s.GoName}, {side + "SideConnection", &s.Conn}, {"New" + side + "SideConnection", &s.NewConn}} {
			if err := a.claim(c.name, what, c.dst); err != nil {
				return err
			}
		}
		for _, m := range s.Handles {
			if m.Required {
				continue
			}
			if err := a.claim(s.GoName+m.GoName, what+" method "+m.Name, &m.Interface); err != nil {
				return err
			}
		}
	}
	return nil
}
