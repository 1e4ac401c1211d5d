package check

import (
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

// needsFixture is a small package with a member of each form a
// requirement names.
type needsFixture struct {
	method                  *ir.Method
	patch, update, stop, id *ir.Type
	note                    *ir.Type
	index                   needs
}

func newNeedsFixture() needsFixture {
	unstable := ir.Gate{Unstable: true}
	method := &ir.Method{Name: "session/new"}
	patch := &ir.Type{Name: "Patch", Kind: ir.Struct, Fields: []*ir.Field{
		{JSONName: "id", Required: true, Type: str()},
		{JSONName: "title", NullMeans: true, Nullable: true, Type: str()},
		{JSONName: "note", Type: str()},
		{JSONName: "draft", Type: str(), Gate: unstable},
	}}
	update := &ir.Type{Name: "Update", Kind: ir.Union, Fields: []*ir.Field{{JSONName: "sessionId", Required: true, Type: str()}},
		Union: &ir.UnionInfo{Tag: "kind",
			Variants: []*ir.Variant{{Name: "plan", Tag: "plan"}, {Name: "fork", Tag: "fork", Gate: unstable}},
			Default:  &ir.Variant{Name: "idle"},
			Fallback: &ir.Variant{Name: "other", Fields: []*ir.Field{{JSONName: "_meta", Type: str()}}}}}
	tagless := &ir.Type{Name: "Tagless", Kind: ir.Union, Union: &ir.UnionInfo{Tag: "kind",
		Variants: []*ir.Variant{{Name: "a", Tag: "a"}}}}
	untagged := &ir.Type{Name: "Untagged", Kind: ir.Union, Union: &ir.UnionInfo{
		Variants: []*ir.Variant{{Name: "text", JSON: ir.KindString}}}}
	stop := &ir.Type{Name: "Stop", Kind: ir.Enum, Enum: &ir.EnumInfo{Values: []*ir.EnumValue{{Name: "end_turn", String: "end_turn"}}}}
	id := &ir.Type{Name: "Id", Kind: ir.Named, Underlying: &ir.Ref{Kind: ir.RefString}}
	blob := &ir.Type{Name: "Blob", Kind: ir.Raw}
	note := &ir.Type{Name: "Note", Kind: ir.Struct, Fields: []*ir.Field{
		{JSONName: "sessionId", Required: true, Type: ir.Ref{Kind: ir.RefNamed, Type: id}},
		{JSONName: "plain", Required: true, Type: str()},
	}}
	p := pkg(patch, update, tagless, untagged, stop, id, blob, note)
	p.Methods = []*ir.Method{method}
	return needsFixture{method: method, patch: patch, update: update, stop: stop, id: id, note: note, index: needsOf(p)}
}

// TestNeeds resolves each form of requirement against a small package,
// met and unmet, and checks the gate it lands on.
func TestNeeds(t *testing.T) {
	fx := newNeedsFixture()
	method, patch, update, stop, id, note, index := fx.method, fx.patch, fx.update, fx.stop, fx.id, fx.note, fx.index
	draft := &patch.Fields[3].Gate
	fork := &update.Union.Variants[1].Gate
	for _, c := range []struct {
		need string
		want *ir.Gate // nil: unmet
	}{
		{"session/new", &method.Gate},
		{"session/old", nil},
		{"Patch", &patch.Gate},
		{"Missing", nil},
		{"Update:plan", &update.Gate},
		{"Update:fork", fork},
		{"Update:gone", nil},
		{"Untagged:text", nil},
		{"Missing:plan", nil},
		{"Update:", &update.Gate},
		{"Tagless:", nil},
		{"Untagged:", nil},
		{"Stop=end_turn", &stop.Gate},
		{"Stop=refusal", nil},
		{"Patch=id", nil},
		{"Patch.note", &patch.Gate},
		{"Patch.draft", draft},
		{"Patch.title", nil},
		{"Patch.gone", nil},
		{"Missing.id", nil},
		{"Patch.id!", &patch.Gate},
		{"Patch.note!", nil},
		{"Patch.note?", &patch.Gate},
		{"Patch.title?", &patch.Gate},
		{"Patch.id?", nil},
		{"Patch.title~", &patch.Gate},
		{"Patch.note~", nil},
		{"Update.sessionId!", &update.Gate},
		{"Update._meta", &update.Gate},
		{"Patch.* id! title~ note draft", nil},
		{"Patch.* id! title~ note", nil},
		{"Id#string", &id.Gate},
		{"Stop#string", &stop.Gate},
		{"Blob#string", nil},
		{"Patch#string", nil},
		{"Id#object", nil},
		{"Missing#string", nil},
		{"Note.sessionId!@Id", &note.Gate},
		{"Note.sessionId@Id", &note.Gate},
		{"Note.plain!@Id", nil},
		{"Note.sessionId!@Blob", nil},
		{"Note.sessionId?@Id", nil},
		{"Patch.* id! title note draft", nil},
	} {
		if got := index.gate(c.need); got != c.want {
			t.Errorf("%q: gate %p, want %p", c.need, got, c.want)
		}
	}
}

// TestNeedsExactList: with every member stable, the exact list is met and
// the list must name each member in its shape.
func TestNeedsExactList(t *testing.T) {
	fx := newNeedsFixture()
	patch, index := fx.patch, fx.index
	patch.Fields[3].Gate = ir.Gate{}
	for need, met := range map[string]bool{
		"Patch.* id! title~ note draft": true,
		"Patch.* id! title~ note":       false,
		"Patch.* id title~ note draft":  true,
		"Patch.* id! title note draft":  false,
		"Patch.* id! title~ note gone":  false,
	} {
		if got := index.gate(need); (got == &patch.Gate) != met || !met && got != nil {
			t.Errorf("%q: gate %p, want met %v", need, got, met)
		}
	}
}
