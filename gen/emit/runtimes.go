package emit

import (
	"fmt"
	"strings"

	"github.com/acpgen/acpgen/templates"
)

// runtimes puts the runtime files that p carries (templates.Runtimes), in
// their order: the JSON-RPC layer when p has it, the connections and the
// sessions when it has them (check decides), and the helper files. The
// plan operations of a session are compiled in when they are stable
// (baked), behind their gate with a file for when they are off when they
// are unstable, and left out when the schema has none.
func (e *emitter) runtimes(out *sink) {
	p := e.p
	for _, r := range templates.Runtimes {
		fill := templates.Fill{Header: e.header(), Package: p.Name, Version: p.Version, ErrorCode: e.errorCodeType()}
		switch r.When {
		case templates.WithRPC:
			if !p.RPC {
				continue
			}
		case templates.WithConn:
			if !p.Conn {
				continue
			}
		case templates.WithSessions:
			if !p.Sessions {
				continue
			}
		case templates.WithTurns:
			if !p.Turns {
				continue
			}
		case templates.WithPlanOps:
			if !p.Sessions || p.PlanOps == nil {
				continue
			}
			if p.PlanOps.Unstable {
				fill.Build = strings.Join(p.PlanOps.Tags(), " || ")
			}
		case templates.WithoutPlanOps:
			if !p.Sessions || p.PlanOps != nil && !p.PlanOps.Unstable {
				continue
			}
			if p.PlanOps != nil {
				fill.Build = "!" + strings.Join(p.PlanOps.Tags(), " && !")
			}
		}
		out.put(File{Name: r.Name, Source: r.Source(fill), Helpers: r.Helpers})
	}
}

// errorCodeType is the Go type of the code of the Error definition.
func (e *emitter) errorCodeType() string {
	if e.p.ErrorCode == nil {
		return "int"
	}
	return fmt.Sprintf("%#v", goType(e.p.ErrorCode.Type))
}
