package names

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
	"sync"

	"github.com/acpgen/acpgen/templates"
)

// RuntimeName is an identifier that a runtime file copied from package
// templates declares in every generated package.
type RuntimeName struct {
	Name string
	File string // "rpc.go"
	// Receiver is the type a method belongs to; "" for a top-level name.
	Receiver string
}

// Runtime returns the top-level names and the methods that the runtime files
// declare in every generated package (decode.go, decode_checks.go, encode.go, json.go and the
// JSON-RPC files rpc.go, rpcdecode.go and tracker.go, and conn.go, conn_init.go, the
// ConnFiles of the templates and the session files in packages with sides), found by parsing their
// sources: new template code is covered without a list to keep up to date.
// Assign reserves them, so that a schema definition of the same name is an
// error here instead of a compile error in the generated package.
func Runtime() []RuntimeName {
	runtimeOnce.Do(func() { runtimeNames = parseRuntime() })
	return runtimeNames
}

var (
	runtimeOnce  sync.Once
	runtimeNames []RuntimeName
)

// runtimeSource is a runtime file and how to fill its template.
type runtimeSource struct {
	file string
	fill func(header, pkg string) []byte
}

func parseRuntime() []RuntimeName {
	var sources []runtimeSource
	for _, name := range templates.ConnFiles {
		sources = append(sources, runtimeSource{name, func(h, p string) []byte { return templates.ConnFile(name, h, p) }})
	}
	sources = append(sources, []runtimeSource{
		{"decode.go", templates.Decoder},
		{"decode_checks.go", templates.DecoderChecks},
		{"encode.go", templates.Encoder},
		{"json.go", templates.JSONHelpers},
		{"rpc.go", func(h, p string) []byte { return templates.RPC(h, p, "ErrorCode") }},
		{"rpcdecode.go", func(h, p string) []byte { return templates.RPCDecoder(h, p, "ErrorCode") }},
		{"tracker.go", templates.Tracker},
		{"conn.go", templates.Conn},
		{"conn_init.go", func(h, p string) []byte { return templates.ConnInit(h, p, "v1") }},
		{"conn_init.go", func(h, p string) []byte { return templates.ConnInit(h, p, "v2") }},
	}...)
	for _, v := range []string{"v1", "v2"} {
		for name := range templates.SessionFiles(v) {
			sources = append(sources, runtimeSource{name, func(h, p string) []byte {
				return templates.Session(name, h, p, v, "")
			}})
		}
	}
	var out []RuntimeName
	for _, src := range sources {
		out = append(out, declared(src.file, src.fill("header", "p"))...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].File+out[i].Name < out[j].File+out[j].Name })
	return out
}

// declared returns the top-level names and methods that the source of
// template file declares.
func declared(file string, src []byte) []RuntimeName {
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.SkipObjectResolution)
	if err != nil {
		// The templates are compiled into the binary and tested to parse.
		panic("names: runtime template " + file + " does not parse: " + err.Error())
	}
	var out []RuntimeName
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name == "init" {
				continue
			}
			n := RuntimeName{Name: d.Name.Name, File: file}
			if d.Recv != nil && len(d.Recv.List) == 1 {
				n.Receiver = ReceiverName(d.Recv.List[0].Type)
			}
			out = append(out, n)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					out = append(out, RuntimeName{Name: s.Name.Name, File: file})
				case *ast.ValueSpec:
					for _, id := range s.Names {
						if id.Name != "_" {
							out = append(out, RuntimeName{Name: id.Name, File: file})
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

// LowerFirst lower-cases the leading capital, or the leading initialism:
// "SessionUpdate" → "sessionUpdate", "MCPServer" → "mcpServer".
func LowerFirst(s string) string {
	i := 1
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' && (i+1 == len(s) || s[i+1] >= 'A' && s[i+1] <= 'Z') {
		i++
	}
	return strings.ToLower(s[:i]) + s[i:]
}

// Interface is the interface a union's variants implement.
func Interface(union string) string { return union + "Variant" }

// Marker is the unexported method that seals a union's variant interface.
func Marker(union string, tagged bool) string {
	if tagged {
		return LowerFirst(union) + "Tag"
	}
	return "is" + union
}

// Registry is the map through which build-tagged files add a union's variants.
func Registry(union string) string { return LowerFirst(union) + "Unstable" }

// UnionMembers is the list of the members of a tagged union that its
// variants leave to it: the tag and the shared fields.
func UnionMembers(union string) string { return LowerFirst(union) + "Members" }

// SharedFields is the type through which a union's shared fields are decoded.
func SharedFields(union string) string { return LowerFirst(union) + "Fields" }

// KeySuffix turns a gate key ("unstable_a+unstable_b", "unstable") into
// part of a Go identifier.
func KeySuffix(key string) string {
	if key == "unstable" {
		return "Unstable"
	}
	var b strings.Builder
	for _, f := range strings.Split(key, "+") {
		b.WriteString(Exported(strings.TrimPrefix(f, "unstable_")))
	}
	return b.String()
}

// Extension is the embedded struct that carries the fields of a type that
// the gate key adds.
func Extension(typ, key string) string { return LowerFirst(typ) + KeySuffix(key) }

// MethodTable is the map through which build-tagged files add methods to the
// function name ("NewRequestParams", "RequestSide").
func MethodTable(fn string) string { return LowerFirst(fn) + "Unstable" }

// MethodFuncs are the functions the methods file declares, by method name.
var MethodFuncs = []string{"NewRequestParams", "NewNotificationParams", "NewResult", "RequestSide", "NotificationSide"}

// Methods every generated type has, and those of some kinds, as the
// emitter writes them: a property may not become a field of the same name.
var (
	typeMethods   = []string{"MarshalJSON", "UnmarshalJSON", "appendJSON", "decodeJSON"}
	objectMethods = []string{"appendMembers", "decodeRest", "decodeRestKeeping", "decodeMember", "decodeMembers", "missing", "rawObject", "keepOther"}
	enumMethods   = []string{"IsKnown", "IsCustom"}
)

// Routes is the routing table of the side whose interface is side, for its
// requests or its notifications.
func Routes(side string, notifications bool) string {
	if notifications {
		return LowerFirst(side) + "Notifications"
	}
	return LowerFirst(side) + "Requests"
}

// ConvertRuntime returns the top-level names and the methods that the
// templates of the convert package declare (templates.ConvertFiles: the
// plan conversions and the bridge), found by parsing them as Runtime finds
// those of the other packages. The member-by-member conversions the emitter
// adds to the package are named by ConvertFunc, and never take one of
// these names (ConvertClaimed).
func ConvertRuntime() []RuntimeName {
	convertOnce.Do(func() { convertNames = parseConvert() })
	return convertNames
}

var (
	convertOnce  sync.Once
	convertNames []RuntimeName
)

func parseConvert() []RuntimeName {
	var out []RuntimeName
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
