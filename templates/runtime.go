package templates

import (
	"embed"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

//go:embed *.go.tmpl
var runtimeFS embed.FS

// When says which generated packages carry a runtime file.
type When int

const (
	// Always: every generated package.
	Always When = iota
	// WithRPC: packages with the JSON-RPC message layer.
	WithRPC
	// WithConn: packages with the connections of an agent and a client.
	WithConn
	// WithSessions: packages with the session runtime.
	WithSessions
	// WithPlanOps: packages with the session runtime whose schema has
	// plan operations; behind their gate when those are unstable.
	WithPlanOps
	// WithoutPlanOps: packages with the session runtime whose schema has
	// no plan operations, or has them only behind a gate (the file is then
	// built when the gate is off).
	WithoutPlanOps
	// WithTurns: packages with the session runtime whose protocol has the
	// v2 prompt lifecycle (the turn runtime and the session contract).
	WithTurns
)

// A Runtime is one runtime file of the generated packages: source that does
// not depend on the schema, copied from a template with the package's name
// and header filled in.
type Runtime struct {
	// Name is the generated file's name, "decode.go".
	Name string
	// Template is the template's file name; "{{VERSION}}" in it stands for
	// the protocol version whose rules the file follows ("conn_init_v1"),
	// and a version without a template of its own takes the latest one.
	Template string
	// Helpers: a file of helper functions, of which a package keeps only
	// those its other files call.
	Helpers bool
	When    When
}

// Runtimes lists the runtime files in the order they are emitted: the
// JSON-RPC layer, the connections and the sessions, then the helper files
// of the decoders and encoders, of which a package keeps what its other
// files call. Adding a runtime file is adding it here: the emitter writes
// it and package names claims its identifiers.
var Runtimes = []Runtime{
	{Name: "rpc.go", Template: "rpc.go.tmpl", When: WithRPC},
	{Name: "rpc_decode.go", Template: "rpcdecode.go.tmpl", When: WithRPC},
	{Name: "tracker.go", Template: "tracker.go.tmpl", When: WithRPC},
	{Name: "conn.go", Template: "conn.go.tmpl", When: WithConn},
	{Name: "conn_io.go", Template: "conn_io.go.tmpl", When: WithConn},
	{Name: "conn_parse.go", Template: "conn_parse.go.tmpl", When: WithConn},
	{Name: "conn_serve.go", Template: "conn_serve.go.tmpl", When: WithConn},
	{Name: "conn_init.go", Template: "conn_init_{{VERSION}}.go.tmpl", When: WithConn},
	{Name: "conn_hooks.go", Template: "conn_hooks.go.tmpl", When: WithConn},
	{Name: "session.go", Template: "session.go.tmpl", When: WithSessions},
	{Name: "session_state.go", Template: "session_{{VERSION}}.go.tmpl", When: WithSessions},
	{Name: "session_conn.go", Template: "session_conn_{{VERSION}}.go.tmpl", When: WithSessions},
	{Name: "session_plan_ops.go", Template: "session_plans_{{VERSION}}.go.tmpl", When: WithPlanOps},
	{Name: "session_plan_ops_off.go", Template: "session_plans_{{VERSION}}_off.go.tmpl", When: WithoutPlanOps},
	{Name: "turn.go", Template: "turn_{{VERSION}}.go.tmpl", When: WithTurns},
	{Name: "turn_calls.go", Template: "turn_calls_{{VERSION}}.go.tmpl", When: WithTurns},
	{Name: "turn_sessions.go", Template: "turn_sessions_{{VERSION}}.go.tmpl", When: WithTurns},
	{Name: "turn_client.go", Template: "turn_client_{{VERSION}}.go.tmpl", When: WithTurns},
	{Name: "decode_checks.go", Template: "decode_checks.go.tmpl", Helpers: true},
	{Name: "decode.go", Template: "decode.go.tmpl", Helpers: true},
	{Name: "decode_objects.go", Template: "decode_objects.go.tmpl", Helpers: true},
	{Name: "decode_scalars.go", Template: "decode_scalars.go.tmpl", Helpers: true},
	{Name: "decode_lists.go", Template: "decode_lists.go.tmpl", Helpers: true},
	{Name: "encode.go", Template: "encode.go.tmpl", Helpers: true},
	{Name: "json.go", Template: "json.go.tmpl", Helpers: true},
}

// Fill holds what a runtime template is filled with.
type Fill struct {
	// Header is the text of the comment that opens the file.
	Header string
	// Package is the generated package's name.
	Package string
	// Version is the protocol version ("v1"), which picks the template of
	// a file whose rules differ between versions.
	Version string
	// ErrorCode is the Go type of the code of the schema's Error
	// ("ErrorCode"; int32 in schemas that name no code type).
	ErrorCode string
	// Build is the file's build constraint; "" for none.
	Build string
}

// Source returns the source of runtime file r filled with f.
func (r Runtime) Source(f Fill) []byte {
	src, err := runtimeFS.ReadFile(r.TemplateFor(f.Version))
	if err != nil {
		// The templates are embedded above; a test reads every one.
		panic("templates: no template for the runtime file " + r.Name + ": " + err.Error())
	}
	build := ""
	if f.Build != "" {
		build = "\n//go:build " + f.Build + "\n"
	}
	return []byte(strings.NewReplacer("{{HEADER}}", f.Header, "{{PACKAGE}}", f.Package,
		"{{BUILD}}", build, "{{ERROR_CODE}}", f.ErrorCode).Replace(string(src)))
}

// TemplateFor returns the name of the template of r for protocol version:
// that version's own, or else the one of the latest version that has one.
func (r Runtime) TemplateFor(version string) string {
	if !strings.Contains(r.Template, "{{VERSION}}") {
		return r.Template
	}
	own := strings.ReplaceAll(r.Template, "{{VERSION}}", version)
	if _, err := fs.Stat(runtimeFS, own); err == nil {
		return own
	}
	best, bestN := "", -1
	for _, v := range r.Versions() {
		if n, err := strconv.Atoi(strings.TrimPrefix(v, "v")); err == nil && n > bestN {
			best, bestN = strings.ReplaceAll(r.Template, "{{VERSION}}", v), n
		}
	}
	return best
}

// Versions returns the protocol versions that have a template of r of
// their own ("v1", "v2"), nil for a file that is the same in every version.
func (r Runtime) Versions() []string {
	if !strings.Contains(r.Template, "{{VERSION}}") {
		return nil
	}
	prefix, suffix, _ := strings.Cut(r.Template, "{{VERSION}}")
	names, _ := fs.Glob(runtimeFS, prefix+"*"+suffix)
	var out []string
	for _, name := range names {
		v := strings.TrimSuffix(strings.TrimPrefix(path.Base(name), prefix), suffix)
		// session_{{VERSION}} also matches session_conn_v1: a version is
		// one word.
		if v != "" && !strings.ContainsAny(v, "_.") {
			out = append(out, v)
		}
	}
	return out
}

// RuntimeNamed returns the runtime file called name ("conn.go").
func RuntimeNamed(name string) (Runtime, bool) {
	for _, r := range Runtimes {
		if r.Name == name {
			return r, true
		}
	}
	return Runtime{}, false
}
