package names

import (
	"fmt"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/gen/ir"
)

// chain returns n inline types nested one in the next under parent; the
// i-th adds member(i) to its parent's schema name.
func chain(parent *ir.Type, member func(i int) string, n int) []*ir.Type {
	var out []*ir.Type
	for i := range n {
		m := member(i)
		t := &ir.Type{Name: parent.Name + m, Kind: ir.Struct, Parent: parent, Member: m}
		t.Pointer = fmt.Sprintf("/$defs/%s/%d", parent.Name[:4], len(out))
		out = append(out, t)
		parent = t
	}
	return out
}

func TestLongInlineNames(t *testing.T) {
	root := &ir.Type{Name: "Root", Pointer: "/$defs/Root", Kind: ir.Struct}
	same := func(s string) func(int) string { return func(int) string { return s } }
	letters := chain(root, same("A"), 80)                                            // one word: RootAAA…
	steps := chain(root, func(i int) string { return fmt.Sprintf("Step%d", i) }, 16) // 4 + 5×10 + 6×6 = 90
	ids := chain(letters[9], func(i int) string { return fmt.Sprintf("Id%c", 'A'+i) }, 20)
	p := &ir.Package{Types: []*ir.Type{root}}
	for _, c := range [][]*ir.Type{letters, steps, ids} {
		p.Types = append(p.Types, c...)
	}
	if err := Assign(p); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		t    *ir.Type
		want string
	}{
		{letters[0], "RootA"},
		{letters[59], "Root" + strings.Repeat("A", 60)}, // 64 characters: kept
		{letters[60], "RootAAA1"},
		{letters[79], "RootAAA20"},
		{steps[10], "RootStep0Step1Step2Step3Step4Step5Step6Step7Step8Step9Step10"},
		{steps[11], "RootStep9Step10Step11N1"}, // the count does not run into the digit
		{steps[15], "RootStep13Step14Step15N1"},
		{ids[15], "Root" + strings.Repeat("A", 10) + "IDAIDBIDCIDDIDEIDFIDGIDHIDIIDJIDKIDLIDMIDNIDOIDP"}, // 62
		{ids[16], "RootIDOIDPIDQ1"},
		{ids[19], "RootIDRIDSIDT1"},
	} {
		if tc.t.GoName != tc.want {
			t.Errorf("%s: Go name %s, want %s", tc.t.Name, tc.t.GoName, tc.want)
		}
		if len(tc.t.GoName) > maxInlineName {
			t.Errorf("%s: Go name %s is longer than %d", tc.t.Name, tc.t.GoName, maxInlineName)
		}
	}
}

// TestLongInlineNamesSkipTaken: a definition named like the count of a long
// inline type keeps its name, and the count goes past it.
func TestLongInlineNamesSkipTaken(t *testing.T) {
	root := &ir.Type{Name: "Root", Pointer: "/$defs/Root", Kind: ir.Struct}
	letters := chain(root, func(int) string { return "A" }, 62)
	def := &ir.Type{Name: "RootAAA1", Pointer: "/$defs/RootAAA1", Kind: ir.Struct}
	p := &ir.Package{Types: append([]*ir.Type{root, def}, letters...)}
	if err := Assign(p); err != nil {
		t.Fatal(err)
	}
	if def.GoName != "RootAAA1" || letters[60].GoName != "RootAAA2" || letters[61].GoName != "RootAAA3" {
		t.Errorf("Go names %s, %s, %s; want RootAAA1, RootAAA2, RootAAA3", def.GoName, letters[60].GoName, letters[61].GoName)
	}
}

// TestInlineStutter: an inline type whose own step repeats the words before
// it is written once with Data; a repeat of several steps stays, so the
// levels of a tree keep names of their own.
func TestInlineStutter(t *testing.T) {
	root := &ir.Type{Name: "Node", Pointer: "/$defs/Node", Kind: ir.Struct}
	tree := chain(root, func(i int) string { return []string{"Children", "Item"}[i%2] }, 8)
	content := &ir.Type{Name: "Tool", Pointer: "/$defs/Tool", Kind: ir.Struct}
	data := chain(content, func(int) string { return "Content" }, 2)
	p := &ir.Package{Types: append(append([]*ir.Type{root, content}, tree...), data...)}
	if err := Assign(p); err != nil {
		t.Fatal(err)
	}
	for ty, want := range map[*ir.Type]string{
		tree[1]: "NodeChildrenItem",
		tree[3]: "NodeChildrenItemChildrenItem",
		tree[7]: "NodeChildrenItemChildrenItemChildrenItemChildrenItem",
		data[0]: "ToolContent",
		data[1]: "ToolContentData",
	} {
		if ty.GoName != want {
			t.Errorf("%s: Go name %s, want %s", ty.Name, ty.GoName, want)
		}
	}
}

// TestLongInlineStep: a step too long to be written whole gives its last
// words (a list of lists thousands deep: ItemItem…).
func TestLongInlineStep(t *testing.T) {
	root := &ir.Type{Name: "Root", Pointer: "/$defs/Root", Kind: ir.Struct}
	member := "A" + strings.Repeat("Item", 100)
	leaf := &ir.Type{Name: root.Name + member, Pointer: "/$defs/Root/x", Kind: ir.Struct, Parent: root, Member: member}
	if err := Assign(&ir.Package{Types: []*ir.Type{root, leaf}}); err != nil {
		t.Fatal(err)
	}
	if want := "Root" + strings.Repeat("Item", 6) + "1"; leaf.GoName != want {
		t.Errorf("Go name %s, want %s", leaf.GoName, want)
	}
}
