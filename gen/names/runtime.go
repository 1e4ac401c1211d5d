package names

// Runtime lists the exported identifiers that the runtime templates define
// in every generated package with JSON-RPC messages (templates/rpc.go.tmpl,
// rpcdecode.go.tmpl, tracker.go.tmpl, json.go.tmpl). Assign reserves them,
// so that a schema definition of the same name is an error here instead of
// a compile error in the generated package.
var Runtime = []string{
	"DecodeMessage",
	"Message",
	"MessageError",
	"NewError",
	"Nullable",
	"RequestTracker",
}
