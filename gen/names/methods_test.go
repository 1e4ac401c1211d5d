package names

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/templates"
)

func TestMethodName(t *testing.T) {
	for _, c := range []struct{ method, params, want string }{
		{"session/prompt", "PromptRequest", "Prompt"},
		{"session/new", "NewSessionRequest", "NewSession"},
		{"session/cancel", "CancelNotification", "Cancel"},
		{"$/cancel_request", "CancelRequestNotification", "CancelRequest"},
		{"session/update", "UpdateSessionNotification", "UpdateSession"},
		{"session/update", "SessionNotification", "SessionUpdate"},
		{"mcp/message", "MessageMcpRequest", "MessageMCP"},
		{"initialize", "Request", "Request"},
	} {
		if got := methodName(c.method, c.params); got != c.want {
			t.Errorf("methodName(%q, %q) = %q, want %q", c.method, c.params, got, c.want)
		}
	}
}

// TestRuntimeNames checks that runtimeDecls has the exported names of the
// connection runtime template and that connMembers lists its methods.
func TestRuntimeNames(t *testing.T) {
	conn, _ := templates.RuntimeNamed("conn.go")
	f, err := parser.ParseFile(token.NewFileSet(), "conn.go", conn.Source(templates.Fill{Header: "header", Package: "p"}), 0)
	if err != nil {
		t.Fatal(err)
	}
	var top, members []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv == nil {
				top = append(top, d.Name.Name)
			} else {
				members = append(members, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						top = append(top, s.Name.Name)
					}
					if it, ok := s.Type.(*ast.InterfaceType); ok {
						for _, m := range it.Methods.List {
							for _, n := range m.Names {
								members = append(members, n.Name)
							}
						}
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							top = append(top, n.Name)
						}
					}
				}
			}
		}
	}
	var runtime []string
	for _, n := range runtimeDecls() {
		if n.File == "conn.go" && n.Receiver == "" && token.IsExported(n.Name) {
			runtime = append(runtime, n.Name)
		}
	}
	same(t, "runtimeDecls() of conn.go", top, runtime)
	same(t, "connMembers", members, connMembers)
}

func same(t *testing.T, what string, got, want []string) {
	t.Helper()
	g := map[string]bool{}
	for _, n := range got {
		g[n] = true
	}
	w := map[string]bool{}
	for _, n := range want {
		w[n] = true
	}
	var missing, extra []string
	for n := range g {
		if !w[n] {
			missing = append(missing, n)
		}
	}
	for n := range w {
		if !g[n] {
			extra = append(extra, n)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 {
		t.Errorf("%s: the template has %v that the list lacks, and the list has %v that the template lacks", what, missing, extra)
	}
}

// TestSideNames checks the names of sides and the errors of collisions.
func TestSideNames(t *testing.T) {
	build := func(typeNames ...string) *ir.Package {
		p := &ir.Package{}
		for _, n := range typeNames {
			p.Types = append(p.Types, &ir.Type{Name: n, Pointer: "#/$defs/" + n, Kind: ir.Struct})
		}
		typ := func(n string) *ir.Type {
			t := &ir.Type{Name: n, Pointer: "#/$defs/" + n, Kind: ir.Struct}
			p.Types = append(p.Types, t)
			return t
		}
		p.Methods = []*ir.Method{
			{Name: "session/load", Kind: ir.Request, Side: "agent", Params: typ("LoadSessionRequest"), Result: typ("LoadSessionResponse")},
			{Name: "session/prompt", Kind: ir.Request, Side: "agent", Params: typ("PromptRequest"), Result: typ("PromptResponse")},
			{Name: "session/update", Kind: ir.Notification, Side: "client", Params: typ("SessionNotification")},
			{Name: "$/cancel_request", Kind: ir.Notification, Side: "protocol", Params: typ("CancelRequestNotification")},
		}
		ir.AddSides(p)
		return p
	}
	p := build()
	if err := Assign(p); err != nil {
		t.Fatal(err)
	}
	a, c := p.SideOf("agent"), p.SideOf("client")
	if a.GoName != "Agent" || a.Conn != "AgentSideConnection" || a.NewConn != "NewAgentSideConnection" || c.GoName != "Client" {
		t.Errorf("side names: %+v %+v", a, c)
	}
	load, prompt := p.Methods[0], p.Methods[1]
	if load.Required || load.Interface != "AgentLoadSession" || load.Const != "MethodLoadSession" {
		t.Errorf("session/load: required %v, interface %q, constant %q", load.Required, load.Interface, load.Const)
	}
	if !prompt.Required || prompt.Interface != "" {
		t.Errorf("session/prompt: required %v, interface %q", prompt.Required, prompt.Interface)
	}
	for _, clash := range []string{"Agent", "AgentLoadSession", "NewParseError", "MethodPrompt"} {
		if err := Assign(build(clash)); err == nil {
			t.Errorf("a schema type %s: no collision reported", clash)
		}
	}
}

// TestRuntimeCoversRegistry checks that runtimeDecls holds the identifiers of
// every runtime file that templates.Runtimes lists, so that a file added
// there is claimed without another list to keep.
func TestRuntimeCoversRegistry(t *testing.T) {
	files := map[string]int{}
	for _, n := range runtimeDecls() {
		files[n.File]++
	}
	for _, r := range templates.Runtimes {
		if files[r.Name] == 0 {
			t.Errorf("runtimeDecls has no identifier of %s", r.Name)
		}
	}
}
