package jsontest

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The shapes of a small union, as the generated packages declare them.
type (
	shapeUnion   struct{ Value shapeVariant }
	shapeVariant interface{ isVariant() }
	shapeText    struct {
		shapeBase
		Text  string
		Size  *int64
		Parts []string
		Raw   json.RawMessage
	}
	shapeBase struct{ Kind shapeKind }
	shapeKind string
)

func (*shapeText) isVariant()         {}
func (k shapeKind) IsKnown() bool     { return k == "known" }
func (u shapeUnion) Tag() string      { return "text" }
func (u *shapeUnion) Pointer() string { return "pointer" }

// TestShapes: each shape matches the value it describes and fails on any
// other; a missing field or method is a failure, not a match.
func TestShapes(t *testing.T) {
	size := int64(12)
	v := &shapeUnion{Value: &shapeText{shapeBase{"known"}, "hi", &size, []string{"a"}, json.RawMessage(`{"n":9007199254740993}`)}}
	for _, tc := range []struct {
		want  any
		match bool
	}{
		{Is("shapeText", nil), true},
		{Is("shapeOther", nil), false},
		{Is("shapeText", Some{"Text": "hi", "Size": 12, "Kind": "known"}), true},
		{Is("shapeText", Some{"Text": "ho"}), false},
		{Is("shapeText", Some{"Size": 13}), false},
		{Is("shapeText", Some{"Nope": 1}), false},
		{Is("shapeText", Fields{"Text": "hi"}), false},
		{Is("shapeText", Fields{"Kind": "known", "Text": "hi", "Size": 12, "Parts": List{"a"}, "Raw": Contains(BigNumber)}), true},
		{Is("shapeText", Some{"Parts": List{"a", "b"}}), false},
		{Is("shapeText", Some{"Parts": List{}}), false},
		{Is("shapeText", Some{"Raw": `{"n":9007199254740993}`}), true},
		{Is("shapeText", Some{"Raw": Contains("9007199254740994")}), false},
		{Is("shapeText", Some{"Kind": All{"known", Some{"IsKnown()": true}}}), true},
		{Is("shapeText", Some{"Kind": Some{"IsKnown()": false}}), false},
		{Is("shapeText", Some{"Kind": Some{"Missing()": false}}), false},
		{Some{"Tag()": "text", "Pointer()": "pointer"}, true},
		{Some{"Tag()": "other"}, false},
		{Some{"Value": NotZero{}}, true},
		{Is("shapeText", Some{"Parts": Empty{}}), false},
		{Is("shapeText", Some{"Kind": NotZero{}, "Text": NotZero{}}), true},
		{Fields{}, false},
		{nil, false},
	} {
		got := len(matchShape("", reflect.ValueOf(v).Elem(), tc.want)) == 0
		if got != tc.match {
			t.Errorf("shape %#v: matched %v, want %v (%v)", tc.want, got, tc.match, matchShape("", reflect.ValueOf(v).Elem(), tc.want))
		}
	}
	if diffs := matchShape("", reflect.ValueOf(&shapeUnion{}).Elem(), Fields{}); len(diffs) != 0 {
		t.Errorf("the zero union differs from Fields{}: %v", diffs)
	}
	if diffs := matchShape("", reflect.ValueOf(&shapeText{Parts: []string{}}).Elem(), Some{"Parts": Empty{}, "Raw": Empty{}, "Text": Empty{}}); len(diffs) != 0 {
		t.Errorf("empty lists and text differ from Empty: %v", diffs)
	}
	if diffs := matchShape("", reflect.ValueOf(&shapeUnion{}).Elem(), Is("shapeText", nil)); len(diffs) == 0 {
		t.Error("the zero union holds a shapeText")
	}
}

// TestFollow: Follow reaches fields, elements and the values behind
// interfaces, and checks the types named on the way.
func TestFollow(t *testing.T) {
	v := &shapeUnion{Value: &shapeText{Parts: []string{"a", "b"}}}
	if got := Follow(t, v, "Value.(shapeText).Parts[1]").String(); got != "b" {
		t.Errorf("Parts[1] = %q", got)
	}
	for _, path := range []string{"Value.(shapeOther).Parts", "Value.Nope", "Value.Parts[2]", "Value.Text[0]"} {
		if _, err := follow(v, path); err == nil {
			t.Errorf("%s: followed", path)
		}
	}
}
