package templates

import (
	"embed"
	"strings"
)

//go:embed session*.go.tmpl
var session embed.FS

// SessionFiles are the names of the session files of a package of
// protocol version v1 or v2 (any later version takes v2's), each with the
// template it comes from: the session state, the client's session router
// and the agent's plans ("session.go", "session_conn.go", …), and the plan
// operations part, which PlanOps and PlanOpsOff name.
func SessionFiles(version string) (files map[string]string) {
	v := "v2"
	if version == "v1" {
		v = "v1"
	}
	return map[string]string{
		"session.go":       "session.go.tmpl",
		"session_state.go": "session_" + v + ".go.tmpl",
		"session_conn.go":  "session_conn_" + v + ".go.tmpl",
		PlanOps:            "session_plans_" + v + ".go.tmpl",
		PlanOpsOff:         "session_plans_" + v + "_off.go.tmpl",
	}
}

// The files of a session's plan operations: PlanOps with them compiled in,
// PlanOpsOff without.
const (
	PlanOps    = "session_plan_ops.go"
	PlanOpsOff = "session_plan_ops_off.go"
)

// Session returns the source of session file name of package pkg of
// protocol version (see SessionFiles); constraint, if not empty, is the
// file's build constraint.
func Session(name, header, pkg, version, constraint string) []byte {
	src, err := session.ReadFile(SessionFiles(version)[name])
	if err != nil {
		// The names are those of SessionFiles, embedded above.
		panic("templates: no session file " + name)
	}
	if constraint != "" {
		constraint = "\n//go:build " + constraint + "\n"
	}
	return []byte(strings.NewReplacer("{{HEADER}}", header, "{{PACKAGE}}", pkg,
		"{{BUILD}}", constraint).Replace(string(src)))
}
