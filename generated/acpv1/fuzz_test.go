package acpv1

import (
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
	"github.com/acpgen/acpgen/internal/jsontest"
)

func FuzzSessionUpdate(f *testing.F) {
	for _, s := range []string{
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hello"},"messageId":"m1"}`,
		`{"sessionUpdate":"user_message_chunk","content":{"type":"resource","resource":{"uri":"file:///a.txt","text":"hi"}}}`,
		`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Edit","kind":"edit","status":"pending","content":[{"type":"diff","path":"/a","oldText":null,"newText":"b"},{"type":"terminal","terminalId":"t1"},{"type":"_x","k":[1]}],"locations":[],"rawInput":{"n":9007199254740993}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"image","data":"AA==","mimeType":"image/png"}}]}`,
		`{"sessionUpdate":"plan","entries":[{"content":"x","priority":"high","status":"pending"}]}`,
		`{"sessionUpdate":"session_info_update","title":null,"_meta":{"a":1}}`,
		`{"sessionUpdate":"usage_update","used":1,"size":2,"cost":{"amount":1e-7,"currency":"USD"}}`,
		`{"zeta":1,"sessionUpdate":"_custom","_meta":{"trace":9007199254740993,"nested":{"b":1,"a":2}}}`,
		` { "sessionUpdate" : "future_kind" , "x" : [ 1 , 2 ] } `,
	} {
		f.Add([]byte(s))
	}
	for _, b := range conformance.Objects(f, "v1", "sessionUpdate") {
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
	for _, b := range conformance.Objects(f, "v1", "type") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		jsontest.FuzzUnionRoundTrip(t, data, func(u *ContentBlock) bool { return u.Value == nil })
	})
}
