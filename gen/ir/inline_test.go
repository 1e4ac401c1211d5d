package ir_test

import "testing"

// TestInlineParents: every inline type knows the type it is part of and
// what its name adds to that type's, through properties, list items, map
// values and union branches.
func TestInlineParents(t *testing.T) {
	doc := `{"$defs":{"Root":{"type":"object","properties":{
		"obj":{"type":"object","properties":{"deep":{"type":"object","properties":{"x":{"type":"string"}}}}},
		"list":{"type":"array","items":{"type":"object","properties":{"y":{"type":"string"}}}},
		"map":{"type":"object","additionalProperties":{"type":"object","properties":{"z":{"type":"string"}}}},
		"either":{"anyOf":[{"type":"string"},{"type":"object","properties":{"w":{"type":"object","properties":{"v":{"type":"string"}}}}}]}}}}}`
	types := buildDoc(t, []byte(doc))
	for name, want := range map[string][2]string{
		"Root":         {"", ""},
		"RootObj":      {"Root", "Obj"},
		"RootObjDeep":  {"RootObj", "Deep"},
		"RootListItem": {"Root", "ListItem"},
		"RootMapValue": {"Root", "MapValue"},
		"RootEither":   {"Root", "Either"},
		"RootEitherW":  {"RootEither", "W"},
	} {
		ty := types[name]
		if ty == nil {
			t.Errorf("no type %s; have %v", name, len(types))
			continue
		}
		parent := ""
		if ty.Parent != nil {
			parent = ty.Parent.Name
		}
		if parent != want[0] || ty.Member != want[1] {
			t.Errorf("%s: parent %q and member %q, want %q and %q", name, parent, ty.Member, want[0], want[1])
		}
	}
}
