package acpv2

import (
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
	"github.com/acpgen/acpgen/internal/jsontest"
)

func FuzzSessionUpdate(f *testing.F) {
	for _, s := range []string{
		`{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"Hello"}}`,
		`{"sessionUpdate":"user_message","messageId":"m1","content":[{"type":"resource","resource":{"uri":"file:///a.txt","text":"hi"}},{"type":"_x"}]}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c1","title":null,"kind":"edit","status":"pending","content":[{"type":"diff","changes":[{"operation":"modify","path":"/a","fileType":"text"}],"patch":{"format":"git_patch","text":"@@"}},{"type":"terminal","terminalId":"t1"}],"locations":[],"rawInput":{"n":9007199254740993}}`,
		`{"sessionUpdate":"tool_call_content_chunk","toolCallId":"c1","content":{"type":"content","content":{"type":"image","data":"AA==","mimeType":"image/png"}}}`,
		`{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p1","entries":[{"content":"x","priority":"high","status":"pending"}]}}`,
		`{"sessionUpdate":"plan_update","plan":{"type":"_custom","planId":"p1","body":[1]}}`,
		`{"sessionUpdate":"state_update","state":"running","background":[]}`,
		`{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}`,
		`{"sessionUpdate":"usage_update","used":1,"size":2,"cost":null}`,
		`{"zeta":1,"sessionUpdate":"_custom","_meta":{"trace":9007199254740993,"nested":{"b":1,"a":2}}}`,
		` { "sessionUpdate" : "future_kind" , "x" : [ 1 , 2 ] } `,
	} {
		f.Add([]byte(s))
	}
	for _, b := range conformance.Objects(f, "v2", "sessionUpdate") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		jsontest.FuzzUnionRoundTrip(t, data, func(u *SessionUpdate) bool { return u.Value == nil })
	})
}

func FuzzContentBlock(f *testing.F) {
	for _, s := range []string{
		`{"type":"text","text":"Hello","annotations":{"audience":["user"],"priority":0.5}}`,
		`{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png","uri":"file:///a.png"}`,
		`{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}`,
		`{"type":"resource_link","uri":"file:///a.go","name":"a.go","size":12}`,
		`{"type":"resource","resource":{"uri":"file:///a.txt","text":"hi","mimeType":"text/plain"}}`,
		`{"type":"resource","resource":{"uri":"file:///a.bin","blob":"AAEC"}}`,
		`{"zeta":1,"type":"_custom","_meta":{"trace":9007199254740993,"nested":{"b":1,"a":2}}}`,
		` { "type" : "future_kind" , "x" : "\u003c" } `,
	} {
		f.Add([]byte(s))
	}
	for _, b := range conformance.Objects(f, "v2", "type") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		jsontest.FuzzUnionRoundTrip(t, data, func(u *ContentBlock) bool { return u.Value == nil })
	})
}
