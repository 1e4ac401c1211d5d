package converttest

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// roundTrip decodes in as the v1 type, converts it to v2 and back, and
// checks that each writes in again: the types have the same shape, so the
// conversion keeps every member.
func roundTrip[V1, V2 any, P1 interface {
	*V1
	UnmarshalJSON([]byte) error
}](t *testing.T, in string, toV2 func(V1) V2, toV1 func(V2) V1) {
	t.Helper()
	var v1 V1
	if err := P1(&v1).UnmarshalJSON([]byte(in)); err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	v2 := toV2(v1)
	back := toV1(v2)
	for name, v := range map[string]any{"v2": v2, "back in v1": back} {
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var want, got any
		json.Unmarshal([]byte(in), &want)
		json.Unmarshal(out, &got)
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s %T: %s, want %s", name, v, out, in)
		}
	}
}

func TestTypesRoundTrip(t *testing.T) {
	roundTrip[acpv1.Implementation, acpv2.Implementation](t,
		`{"name":"zed","title":"Zed","version":"1.2","_meta":{"n":9007199254740993}}`, convert.ImplementationToV2, convert.ImplementationToV1)
	roundTrip[acpv1.ToolCallLocation, acpv2.ToolCallLocation](t, `{"path":"/a.go","line":7}`, convert.ToolCallLocationToV2, convert.ToolCallLocationToV1)
	roundTrip[acpv1.BlobResourceContents, acpv2.BlobResourceContents](t,
		`{"blob":"AA==","uri":"file:///x","mimeType":"image/png"}`, convert.BlobResourceContentsToV2, convert.BlobResourceContentsToV1)
	roundTrip[acpv1.StringMultiSelectItems, acpv2.StringMultiSelectItems](t,
		`{"enum":["a","b"],"_meta":{"k":[1]}}`, convert.StringMultiSelectItemsToV2, convert.StringMultiSelectItemsToV1)
	roundTrip[acpv1.TitledMultiSelectItems, acpv2.TitledMultiSelectItems](t,
		`{"anyOf":[{"const":"a","title":"A"}]}`, convert.TitledMultiSelectItemsToV2, convert.TitledMultiSelectItemsToV1)
	roundTrip[acpv1.ElicitationCapabilities, acpv2.ElicitationCapabilities](t,
		`{"form":{},"url":{"_meta":{}}}`, convert.ElicitationCapabilitiesToV2, convert.ElicitationCapabilitiesToV1)
	roundTrip[acpv1.CloseSessionRequest, acpv2.CloseSessionRequest](t, `{"sessionId":"s"}`, convert.CloseSessionRequestToV2, convert.CloseSessionRequestToV1)
}

// TestTypesCopy checks that a conversion shares nothing with its input.
func TestTypesCopy(t *testing.T) {
	in := acpv1.StringMultiSelectItems{Enum: []string{"a"}}
	out := convert.StringMultiSelectItemsToV2(in)
	in.Enum[0] = "changed"
	if out.Enum[0] != "a" {
		t.Error("the converted list shares the input's")
	}
	loc := acpv1.ToolCallLocation{Path: "/a", Line: acpv1.Ptr[uint32](1)}
	conv := convert.ToolCallLocationToV2(loc)
	*loc.Line = 2
	if *conv.Line != 1 {
		t.Error("the converted line shares the input's")
	}
}
