package emit

import (
	"strings"

	"github.com/acpgen/acpgen/templates"
)

// sessionFiles puts the session runtime files of the package, when it has
// them (check decides): the state and the client's router and the agent's
// plan calls, then the plan operations part behind the gate of the plan
// operations, with a file for when they are off; compiled in when they are
// stable (baked), left out when the schema has none.
func (e *emitter) sessionFiles(out *sink) {
	p := e.p
	if !p.Sessions {
		return
	}
	for _, name := range []string{"session.go", "session_state.go", "session_conn.go"} {
		out.source(name, templates.Session(name, e.header(), p.Name, p.Version, ""), false)
	}
	switch {
	case p.PlanOps == nil:
		out.source(templates.PlanOpsOff, templates.Session(templates.PlanOpsOff, e.header(), p.Name, p.Version, ""), false)
	case !p.PlanOps.Unstable:
		out.source(templates.PlanOps, templates.Session(templates.PlanOps, e.header(), p.Name, p.Version, ""), false)
	default:
		tags := p.PlanOps.Tags()
		out.source(templates.PlanOps, templates.Session(templates.PlanOps, e.header(), p.Name, p.Version,
			strings.Join(tags, " || ")), false)
		out.source(templates.PlanOpsOff, templates.Session(templates.PlanOpsOff, e.header(), p.Name, p.Version,
			"!"+strings.Join(tags, " && !")), false)
	}
}
