package names

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
	"sync"

	"github.com/acpgen/acpgen/gen/ir"
	"github.com/acpgen/acpgen/templates"
)

// runtimeName is an identifier that a runtime file copied from package
// templates declares in every generated package that carries the file.
type runtimeName struct {
	Name string
	File string // "rpc.go"
	// Receiver is the type a method belongs to; "" for a top-level name.
	Receiver string
	// When says which packages carry the file.
	When templates.When
}

// runtimeDecls returns the top-level names and the methods that the runtime
// files (templates.Runtimes) declare, found by parsing their sources, each
// version's template of a file whose rules differ between versions: a new
// runtime file is covered by its entry in templates.Runtimes. Assign
// reserves them, so that a schema definition of the same name is an error
// here instead of a compile error in the generated package.
func runtimeDecls() []runtimeName {
	runtimeOnce.Do(func() { runtimeNames = parseRuntime() })
	return runtimeNames
}

var (
	runtimeOnce  sync.Once
	runtimeNames []runtimeName
)

func parseRuntime() []runtimeName {
	var out []runtimeName
	for _, r := range templates.Runtimes {
		versions := r.Versions()
		if versions == nil {
			versions = []string{""}
		}
		for _, v := range versions {
			src := r.Source(templates.Fill{Header: "header", Package: "p", Version: v, ErrorCode: "ErrorCode"})
			for _, n := range declared(r.Name, src) {
				n.When = r.When
				out = append(out, n)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].File+out[i].Name < out[j].File+out[j].Name })
	return out
}

// declared returns the top-level names and methods that the source of
// template file declares.
func declared(file string, src []byte) []runtimeName {
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.SkipObjectResolution)
	if err != nil {
		// The templates are compiled into the binary and tested to parse.
		panic("names: runtime template " + file + " does not parse: " + err.Error())
	}
	var out []runtimeName
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name == "init" {
				continue
			}
			n := runtimeName{Name: d.Name.Name, File: file}
			if d.Recv != nil && len(d.Recv.List) == 1 {
				n.Receiver = ReceiverName(d.Recv.List[0].Type)
			}
			out = append(out, n)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					out = append(out, runtimeName{Name: s.Name.Name, File: file})
				case *ast.ValueSpec:
					for _, id := range s.Names {
						if id.Name != "_" {
							out = append(out, runtimeName{Name: id.Name, File: file})
						}
					}
				}
			}
		}
	}
	return out
}

// ReceiverName is the type name of a method receiver: T, *T, T[X], *T[X],
// T[X, Y]; "" for an expression that names no type.
func ReceiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// Names the emitter derives from a type's Go name. They are computed here,
// claimed by Assign, and called by the emitter, so both agree.

// lowerFirst lower-cases the leading capital, or the leading initialism:
// "SessionUpdate" → "sessionUpdate", "MCPServer" → "mcpServer".
func lowerFirst(s string) string {
	i := 1
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' && (i+1 == len(s) || s[i+1] >= 'A' && s[i+1] <= 'Z') {
		i++
	}
	return strings.ToLower(s[:i]) + s[i:]
}

// variantInterface is the interface a union's variants implement.
func variantInterface(union string) string { return union + "Variant" }

// marker is the unexported method that seals a union's variant interface.
func marker(union string, tagged bool) string {
	if tagged {
		return lowerFirst(union) + "Tag"
	}
	return "is" + union
}

// registry is the map through which build-tagged files add a union's variants.
func registry(union string) string { return lowerFirst(union) + "Unstable" }

// unionMembers is the list of the members of a tagged union that its
// variants leave to it: the tag and the shared fields.
func unionMembers(union string) string { return lowerFirst(union) + "Members" }

// sharedFields is the type through which a union's shared fields are decoded.
func sharedFields(union string) string { return lowerFirst(union) + "Fields" }

// keySuffix turns a gate key ("unstable_a+unstable_b", "unstable") into
// part of a Go identifier.
func keySuffix(key string) string {
	if key == ir.Umbrella {
		return "Unstable"
	}
	var b strings.Builder
	for _, f := range strings.Split(key, "+") {
		b.WriteString(exported(strings.TrimPrefix(f, ir.FeaturePrefix)))
	}
	return b.String()
}

// extension is the embedded struct that carries the fields of a type that
// the gate key adds.
func extension(typ, key string) string { return lowerFirst(typ) + keySuffix(key) }

// methodTable is the map through which build-tagged files add methods to the
// function name ("NewRequestParams", "RequestSide").
func methodTable(fn string) string { return lowerFirst(fn) + "Unstable" }

// methodFuncNames are the functions the methods file declares, by method name.
var methodFuncNames = []string{"NewRequestParams", "NewNotificationParams", "NewResult", "RequestSide", "NotificationSide"}

// Methods every generated type has, and those of some kinds, as the
// emitter writes them: a property may not become a field of the same name.
var (
	typeMethods   = []string{"MarshalJSON", "UnmarshalJSON", "appendJSON", "decodeJSON"}
	objectMethods = []string{"appendMembers", "decodeRest", "decodeMember", "decodeMembers", "missing", "rawObject", "keepOther"}
	enumMethods   = []string{"IsKnown", "IsCustom"}
)

// routes is the routing table of the side whose interface is side, for its
// requests or its notifications.
func routes(side string, notifications bool) string {
	if notifications {
		return lowerFirst(side) + "Notifications"
	}
	return lowerFirst(side) + "Requests"
}

// ConvertRuntime returns the top-level names and the methods that the
// templates of the convert package declare (templates.ConvertFiles: the
// plan conversions and the bridge), found by parsing them as runtimeDecls finds
// those of the other packages. The member-by-member conversions the emitter
// adds to the package are named by ConvertFunc, and never take one of
// these names (ConvertClaimed).
func ConvertRuntime() []runtimeName {
	convertOnce.Do(func() { convertNames = parseConvert() })
	return convertNames
}

var (
	convertOnce  sync.Once
	convertNames []runtimeName
)

func parseConvert() []runtimeName {
	var out []runtimeName
	for _, file := range templates.ConvertFiles() {
		src, err := templates.Convert(file, "header", "", "example.com/acpv1", "example.com/acpv2")
		if err != nil {
			panic("names: convert template " + file + ": " + err.Error())
		}
		out = append(out, declared(file, src)...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].File+out[i].Name < out[j].File+out[j].Name })
	return out
}

// ConvertClaimed reports whether a template of the convert package declares
// the top-level name.
func ConvertClaimed(name string) bool {
	for _, n := range ConvertRuntime() {
		if n.Receiver == "" && n.Name == name {
			return true
		}
	}
	return false
}

// ConvertFunc names the function of the convert package that converts the
// type of Go name typ member by member, to v2 or to v1: "ImplementationToV2".
func ConvertFunc(typ string, toV2 bool) string {
	if toV2 {
		return typ + "ToV2"
	}
	return typ + "ToV1"
}

// ConvertHelpers are the unexported functions the emitter declares beside
// the member-by-member conversions of the convert package (types.go), where
// they are needed.
var ConvertHelpers = []string{"convertPointer", "clonePointer", "convertSlice", "convertMap"}
