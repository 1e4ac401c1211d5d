package ir_test

import (
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

// TestMethodSelectedObjects: params that only the method tells apart are
// kept raw; when every alternative is an object, the raw value must be one,
// and a free-form alternative (an extension method's) lets any value in.
func TestMethodSelectedObjects(t *testing.T) {
	const defs = `"ANotification":{"type":"object","properties":{"a":{"type":"string"}},"x-method":"a","x-side":"agent"},
		"BNotification":{"type":"object","properties":{"b":{"type":"string"}},"x-method":"b","x-side":"agent"},
		"AliasNotification":{"allOf":[{"$ref":"#/$defs/BNotification"}],"x-method":"c","x-side":"agent"},
		"ExtNotification":{"description":"anything"}`
	for _, c := range []struct {
		name, branches string
		object         bool
	}{
		{"objects", `{"anyOf":[{"$ref":"#/$defs/ANotification"},{"allOf":[{"$ref":"#/$defs/AliasNotification"}]}]},{"type":"null"}`, true},
		{"with a free-form one", `{"$ref":"#/$defs/ANotification"},{"$ref":"#/$defs/BNotification"},{"$ref":"#/$defs/ExtNotification"}`, false},
	} {
		doc := `{"$defs":{` + defs + `,"Msg":{"type":"object","properties":{"params":{"anyOf":[` + c.branches + `]}}}}}`
		f := buildDoc(t, []byte(doc))["Msg"].Fields[0]
		if f.Type.Kind != ir.RefRaw || f.Type.Object != c.object {
			t.Errorf("%s: params %+v, want raw with Object %v", c.name, f.Type, c.object)
		}
	}
}
