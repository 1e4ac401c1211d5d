package emit

import (
	"reflect"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

// TestSharedRest checks which structs decode through the runtime's
// structRest, whose required names are separated by spaces: a name with a
// space makes the struct decode with a missing method of its own.
func TestSharedRest(t *testing.T) {
	spec := func(names ...string) objectSpec {
		var fields []*ir.Field
		for _, n := range names {
			fields = append(fields, &ir.Field{JSONName: n, Required: true})
		}
		fields = append(fields, &ir.Field{JSONName: "optional"})
		return objectSpec{fields: fields, bits: requiredBits(fields), keep: true}
	}
	closed := spec("id")
	closed.keep = false // rejects the members it does not know
	for _, c := range []struct {
		spec objectSpec
		want []string
		ok   bool
	}{
		{spec(), []string{}, true},
		{spec("toolCallId", "title"), []string{"toolCallId", "title"}, true},
		{spec("toolCallId", "a title"), nil, false},
		{closed, nil, false},
	} {
		got, ok := sharedRest(c.spec, nil)
		if ok != c.ok || (ok && !reflect.DeepEqual(got, c.want)) {
			t.Errorf("sharedRest(%v) = %q, %v; want %q, %v", c.spec.bits, got, ok, c.want, c.ok)
		}
	}
}

// TestSharedFieldDecoder checks which members decode through a decoder of
// the runtime's own, and that one rule more or less keeps the generic call.
func TestSharedFieldDecoder(t *testing.T) {
	meta := ir.Ref{Kind: ir.RefRaw, Object: true}
	str := ir.Ref{Kind: ir.RefString}
	for _, c := range []struct {
		name  string
		field ir.Field
		want  string
	}{
		{"_meta", ir.Field{Type: meta, Null: ir.NullAbsent, DefaultOnError: true}, "decodeMetaField"},
		{"_meta without a default", ir.Field{Type: meta, Null: ir.NullAbsent}, ""},
		{"optional string", ir.Field{Type: str, Nullable: true, DefaultOnError: true}, "decodeOptionalStringField"},
		{"optional string without a default", ir.Field{Type: str, Nullable: true}, ""},
		{"required string", ir.Field{Type: str, Required: true, DefaultOnError: true}, ""},
		{"string whose null clears it", ir.Field{Type: str, Nullable: true, DefaultOnError: true, NullMeans: true}, ""},
		{"checked string", ir.Field{Type: ir.Ref{Kind: ir.RefString, Check: &ir.Check{}}, Nullable: true, DefaultOnError: true}, ""},
	} {
		if got := sharedFieldDecoder(&c.field); got != c.want {
			t.Errorf("%s: sharedFieldDecoder = %q, want %q", c.name, got, c.want)
		}
	}
}
