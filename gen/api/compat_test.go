package api

import (
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

// compatFixture is a small package: a struct with an optional string and a
// number, a closed enum with two values, and a tagged union with two
// variants; change edits a copy before it is compared with the original.
func compatFixture(change func(p *ir.Package)) *ir.Package {
	s := &ir.Type{Name: "Thing", GoName: "Thing", Kind: ir.Struct, Fields: []*ir.Field{
		{JSONName: "name", GoName: "Name", Type: ir.Ref{Kind: ir.RefString}},
		{JSONName: "size", GoName: "Size", Type: ir.Ref{Kind: ir.RefFloat}, Required: true},
	}}
	e := &ir.Type{Name: "Color", GoName: "Color", Kind: ir.Enum, Enum: &ir.EnumInfo{Values: []*ir.EnumValue{
		{Name: "red", GoName: "ColorRed", String: "red"},
		{Name: "blue", GoName: "ColorBlue", String: "blue"},
	}}}
	u := &ir.Type{Name: "Shape", GoName: "Shape", Kind: ir.Union, Union: &ir.UnionInfo{Tag: "kind", Variants: []*ir.Variant{
		{Name: "circle", GoName: "ShapeCircle", Tag: "circle"},
		{Name: "square", GoName: "ShapeSquare", Tag: "square"},
	}, Fallback: &ir.Variant{Name: "other", GoName: "ShapeOther"}}}
	p := &ir.Package{Name: "acpv1", Version: "v1", Types: []*ir.Type{s, e, u},
		Methods: []*ir.Method{{Name: "thing/get", GoName: "MethodThingGet", Params: s}}}
	if change != nil {
		change(p)
	}
	return p
}

func TestCompare(t *testing.T) {
	unstable := ir.Gate{Unstable: true, Features: []string{"unstable_x"}}
	for _, tc := range []struct {
		name   string
		change func(p *ir.Package)
		want   []string // "class [tags] change", in report order
	}{
		{"nothing", func(*ir.Package) {}, nil},
		{"optional field now required", func(p *ir.Package) { p.Types[0].Fields[0].Required = true }, []string{
			"breaks-go [] field Thing.name: field Thing.Name *string is now field Thing.Name string",
			"breaks-wire [] field Thing.name is now required: messages from older peers may lack it",
		}},
		{"required field added", func(p *ir.Package) {
			p.Types[0].Fields = append(p.Types[0].Fields, &ir.Field{JSONName: "id", GoName: "ID", Type: ir.Ref{Kind: ir.RefString}, Required: true})
		}, []string{
			"breaks-wire [] field Thing.id added, required: messages from older peers lack it",
			"compatible [] field Thing.ID string added",
		}},
		{"required field removed", func(p *ir.Package) { p.Types[0].Fields = p.Types[0].Fields[:1] }, []string{
			"breaks-go [] field Thing.size removed (field Thing.Size float64)",
			"breaks-wire [] field Thing.size removed: older peers, which require it, reject messages from newer ones",
		}},
		{"number narrowed to integer", func(p *ir.Package) { p.Types[0].Fields[1].Type = ir.Ref{Kind: ir.RefInt, Bits: 64} }, []string{
			"breaks-go [] field Thing.size: field Thing.Size float64 is now field Thing.Size int64",
			"breaks-wire [] field Thing.size: JSON number is now integer",
		}},
		{"variant removed", func(p *ir.Package) { p.Types[2].Union.Variants = p.Types[2].Union.Variants[:1] }, []string{
			"breaks-go [] variant Shape.square removed (type ShapeSquare (variant))",
			"breaks-wire [] variant Shape.square removed: it now decodes as the union's Other variant",
		}},
		{"enum value removed and one added", func(p *ir.Package) {
			p.Types[1].Enum.Values[1] = &ir.EnumValue{Name: "green", GoName: "ColorGreen", String: "green"}
		}, []string{
			"breaks-go [] value Color.blue removed (const ColorBlue)",
			"breaks-wire [] value Color.blue removed: an open enum keeps it as an unknown value, a closed one rejects it",
			"compatible [] value Color.green added (const ColorGreen); older peers reject it: the enum is closed",
		}},
		{"method now unstable", func(p *ir.Package) { p.Methods[0].Gate = unstable }, []string{
			"breaks-go [unstable_x unstable] request thing/get needs build tags unstable_x or unstable (was none (stable))",
		}},
		{"type renamed in Go", func(p *ir.Package) { p.Types[0].GoName = "Item" }, []string{
			"breaks-go [] type Thing: type Thing struct is now type Item struct",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := Compare("v1", compatFixture(nil), compatFixture(tc.change))
			SortFindings(fs)
			var got []string
			for _, f := range fs {
				got = append(got, string(f.Class)+" ["+strings.Join(f.Features, " ")+"] "+f.Change)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if Breaking(fs) != strings.HasPrefix(strings.Join(tc.want, "\n"), "breaks") {
				t.Errorf("Breaking = %v", Breaking(fs))
			}
		})
	}
}

func TestCompareVersions(t *testing.T) {
	p := compatFixture(nil)
	if fs := Compare("v2", nil, p); len(fs) != 1 || fs[0].Class != Compatible {
		t.Errorf("version added: %+v", fs)
	}
	if fs := Compare("v2", p, nil); !Breaking(fs) {
		t.Errorf("version removed: %+v, want breaking", fs)
	}
}
