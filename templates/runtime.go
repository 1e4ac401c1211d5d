package templates

import (
	"bytes"
	"embed"
	"go/scanner"
	"go/token"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

//go:embed codec jsonrpc conn session turn
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
	// WithTurns: packages with the session runtime whose schema has what
	// the turn runtime of their protocol version needs (the turn runtime,
	// the history it keeps and the session contract).
	WithTurns
)

// A Runtime is one runtime file of the generated packages: source that does
// not depend on the schema, copied from the file Dir/Name (or, for a file
// whose rules differ between versions, Dir/<version>/Name) with the
// package's name and header filled in.
type Runtime struct {
	// Name is the generated file's name, "decode.go", and the name of the
	// file it is copied from.
	Name string
	// Dir is the folder of the file under templates/, "codec".
	Dir string
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
	{Name: "rpc.go", Dir: "jsonrpc", When: WithRPC},
	{Name: "rpc_decode.go", Dir: "jsonrpc", When: WithRPC},
	{Name: "rpc_payload.go", Dir: "jsonrpc", When: WithRPC},
	{Name: "tracker.go", Dir: "jsonrpc", When: WithRPC},
	{Name: "conn.go", Dir: "conn", When: WithConn},
	{Name: "conn_options.go", Dir: "conn", When: WithConn},
	{Name: "conn_read.go", Dir: "conn", When: WithConn},
	{Name: "conn_parse.go", Dir: "conn", When: WithConn},
	{Name: "conn_hold.go", Dir: "conn", When: WithConn},
	{Name: "conn_dispatch.go", Dir: "conn", When: WithConn},
	{Name: "conn_serve.go", Dir: "conn", When: WithConn},
	{Name: "conn_context.go", Dir: "conn", When: WithConn},
	{Name: "conn_middleware.go", Dir: "conn", When: WithConn},
	{Name: "conn_route.go", Dir: "conn", When: WithConn},
	{Name: "conn_call.go", Dir: "conn", When: WithConn},
	{Name: "conn_send.go", Dir: "conn", When: WithConn},
	{Name: "conn_outbox.go", Dir: "conn", When: WithConn},
	{Name: "conn_write.go", Dir: "conn", When: WithConn},
	{Name: "conn_init.go", Dir: "conn", When: WithConn},
	{Name: "conn_wirelog.go", Dir: "conn", When: WithConn},
	{Name: "conn_hooks.go", Dir: "conn", When: WithConn},
	{Name: "conn_drops.go", Dir: "conn", When: WithConn},
	{Name: "proxy.go", Dir: "conn", When: WithConn},
	{Name: "proxy_route.go", Dir: "conn", When: WithConn},
	{Name: "proxy_parse.go", Dir: "conn", When: WithConn},
	{Name: "proxy_valid.go", Dir: "conn", When: WithConn},
	{Name: "proxy_message.go", Dir: "conn", When: WithConn},
	{Name: "proxy_write.go", Dir: "conn", When: WithConn},
	{Name: "session.go", Dir: "session", When: WithSessions},
	{Name: "session_copy.go", Dir: "session", When: WithSessions},
	{Name: "session_state.go", Dir: "session", When: WithSessions},
	{Name: "session_conn.go", Dir: "session", When: WithSessions},
	{Name: "session_router.go", Dir: "session", When: WithSessions},
	{Name: "session_plan_ops.go", Dir: "session", When: WithPlanOps},
	{Name: "session_plan_ops_off.go", Dir: "session", When: WithoutPlanOps},
	{Name: "store.go", Dir: "session", When: WithSessions},
	{Name: "turn.go", Dir: "turn", When: WithTurns},
	{Name: "turn_calls.go", Dir: "turn", When: WithTurns},
	{Name: "turn_sessions.go", Dir: "turn", When: WithTurns},
	{Name: "turn_client.go", Dir: "turn", When: WithTurns},
	{Name: "turn_store.go", Dir: "turn", When: WithTurns},
	{Name: "turn_history.go", Dir: "turn", When: WithTurns},
	{Name: "decode_checks.go", Dir: "codec", Helpers: true},
	{Name: "decode.go", Dir: "codec", Helpers: true},
	{Name: "decode_objects.go", Dir: "codec", Helpers: true},
	{Name: "decode_fields.go", Dir: "codec", Helpers: true},
	{Name: "decode_scalars.go", Dir: "codec", Helpers: true},
	{Name: "decode_lists.go", Dir: "codec", Helpers: true},
	{Name: "encode.go", Dir: "codec", Helpers: true},
	{Name: "json.go", Dir: "codec", Helpers: true},
}

// Fill holds what a runtime file is filled with.
type Fill struct {
	// Header is the text of the comment that opens the file.
	Header string
	// Package is the generated package's name.
	Package string
	// Version is the protocol version ("v1"), which picks the file of a
	// file whose rules differ between versions.
	Version string
	// ErrorCode is the Go type of the code of the schema's Error
	// ("ErrorCode"; int in schemas that name no code type), which the
	// files name ErrorCode.
	ErrorCode string
	// Build is the file's build constraint; "" for none.
	Build string
}

// The package clause and the type name that the runtime files are written
// with, which Source replaces.
const (
	packageClause = "\npackage acp\n"
	errorCodeType = "ErrorCode"
)

// Source returns the source of runtime file r filled with f.
func (r Runtime) Source(f Fill) []byte {
	name := r.Path(f.Version)
	src, err := runtimeFS.ReadFile(name)
	if err == nil {
		src, err = fill(name, src, f.Header, f.Build)
	}
	if err != nil {
		// The files are embedded above; a test reads every one.
		panic("templates: no runtime file " + r.Name + ": " + err.Error())
	}
	src = bytes.Replace(src, []byte(packageClause), []byte("\npackage "+f.Package+"\n"), 1)
	if f.ErrorCode != "" && f.ErrorCode != errorCodeType {
		src = renameIdent(src, errorCodeType, f.ErrorCode)
	}
	return src
}

// renameIdent returns src with every identifier from that is not the
// selector of a qualified name (x.from) replaced by to; comments and
// strings are left alone.
func renameIdent(src []byte, from, to string) []byte {
	if !bytes.Contains(src, []byte(from)) {
		return src
	}
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	var out []byte
	last, prev := 0, token.ILLEGAL
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.IDENT && lit == from && prev != token.PERIOD {
			off := file.Offset(pos)
			out = append(append(out, src[last:off]...), to...)
			last = off + len(from)
		}
		prev = tok
	}
	return append(out, src[last:]...)
}

// Path returns the path under templates/ of the file of r for protocol
// version: Dir/Name for a file that is the same in every version, else
// that version's own, or else the one of the latest version that has one.
func (r Runtime) Path(version string) string {
	versions := r.Versions()
	if versions == nil {
		return path.Join(r.Dir, r.Name)
	}
	best, bestN := "", -1
	for _, v := range versions {
		if v == version {
			return path.Join(r.Dir, v, r.Name)
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(v, "v")); err == nil && n > bestN {
			best, bestN = path.Join(r.Dir, v, r.Name), n
		}
	}
	return best
}

// Versions returns the protocol versions that have a file of r of their
// own, in subfolders of Dir ("v1", "v2"); nil for a file that is the same
// in every version.
func (r Runtime) Versions() []string {
	names, _ := fs.Glob(runtimeFS, path.Join(r.Dir, "v*", r.Name))
	var out []string
	for _, name := range names {
		out = append(out, path.Base(path.Dir(name)))
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
