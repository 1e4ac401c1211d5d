package ir_test

import "testing"

// TestDefaultTag: a branch without tag leaves the tag free unless it, or a
// definition it is made of, names the tag or forbids unnamed members; an
// unknown tag goes to it only when the schema has no branch for unknown tags.
func TestDefaultTag(t *testing.T) {
	const known = `{"type":"object","properties":{"kind":{"type":"string","const":"a"}},"required":["kind"]}`
	const other = `{"title":"other","type":"object","properties":{"kind":{"type":"string"}},"required":["kind"],"not":` + known + `}`
	for _, c := range []struct {
		name, branch, extra string
		tagFree, unknown    bool
	}{
		{"free", `{"title":"plain","allOf":[{"$ref":"#/$defs/Free"}]}`, "", true, true},
		{"free with a fallback branch", `{"title":"plain","allOf":[{"$ref":"#/$defs/Free"}]}`, other, true, false},
		{"names the tag", `{"title":"none","type":"object","properties":{"kind":{"type":"null"}}}`, "", false, false},
		{"made of a definition that names it", `{"title":"plain","allOf":[{"$ref":"#/$defs/Named"}]}`, "", false, false},
		{"closed", `{"title":"plain","allOf":[{"$ref":"#/$defs/Closed"}]}`, "", false, false},
	} {
		branches := known + "," + c.branch
		if c.extra != "" {
			branches += "," + c.extra
		}
		doc := `{"$defs":{"U":{"anyOf":[` + branches + `]},
			"Free":{"type":"object","properties":{"x":{"type":"string"}}},
			"Named":{"type":"object","properties":{"kind":{"type":"string"}}},
			"Closed":{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false}}}`
		u := buildDoc(t, []byte(doc))["U"].Union
		if u.Default == nil {
			t.Errorf("%s: no default branch", c.name)
			continue
		}
		if u.DefaultTag != c.tagFree || u.UnknownDefault != c.unknown {
			t.Errorf("%s: DefaultTag %v UnknownDefault %v, want %v %v", c.name, u.DefaultTag, u.UnknownDefault, c.tagFree, c.unknown)
		}
	}
}
