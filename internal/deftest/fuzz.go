package deftest

import (
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// FuzzUnion fuzzes the round trip of the tagged union U
// (jsontest.FuzzUnionRoundTrip), seeded with seeds, the unknown tags of
// UnknownSeeds, and the corpus objects of version that carry tagKey.
func FuzzUnion[U interface{ Tag() string }](f *testing.F, version, tagKey string, seeds []string, isNull func(*U) bool) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	for _, s := range UnknownSeeds(tagKey) {
		f.Add([]byte(s))
	}
	for _, b := range conformance.Objects(f, version, tagKey) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		jsontest.FuzzUnionRoundTrip(t, data, isNull)
	})
}

// UnknownSeeds are objects of tags no union knows, custom and not, carrying
// tagKey.
func UnknownSeeds(tagKey string) []string {
	if tagKey == "type" {
		return []string{
			`{"zeta":1,"type":"_custom","_meta":{"trace":9007199254740993,"nested":{"b":1,"a":2}}}`,
			` { "type" : "future_kind" , "x" : "\u003c" } `,
		}
	}
	return []string{
		`{"zeta":1,"` + tagKey + `":"_custom","_meta":{"trace":9007199254740993,"nested":{"b":1,"a":2}}}`,
		` { "` + tagKey + `" : "future_kind" , "x" : [ 1 , 2 ] } `,
	}
}

// ContentBlockSeeds are objects of each known ContentBlock tag.
var ContentBlockSeeds = []string{
	`{"type":"text","text":"Hello","annotations":{"audience":["user"],"priority":0.5}}`,
	`{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png","uri":"file:///a.png"}`,
	`{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}`,
	`{"type":"resource_link","uri":"file:///a.go","name":"a.go","size":12}`,
	`{"type":"resource","resource":{"uri":"file:///a.txt","text":"hi","mimeType":"text/plain"}}`,
	`{"type":"resource","resource":{"uri":"file:///a.bin","blob":"AAEC"}}`,
}
