package acpv1test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/deftest"
)

func FuzzSessionUpdate(f *testing.F) {
	deftest.FuzzUnion(f, "v1", "sessionUpdate", []string{
		`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hello"},"messageId":"m1"}`,
		`{"sessionUpdate":"user_message_chunk","content":{"type":"resource","resource":{"uri":"file:///a.txt","text":"hi"}}}`,
		`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Edit","kind":"edit","status":"pending","content":[{"type":"diff","path":"/a","oldText":null,"newText":"b"},{"type":"terminal","terminalId":"t1"},{"type":"_x","k":[1]}],"locations":[],"rawInput":{"n":9007199254740993}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"image","data":"AA==","mimeType":"image/png"}}]}`,
		`{"sessionUpdate":"plan","entries":[{"content":"x","priority":"high","status":"pending"}]}`,
		`{"sessionUpdate":"session_info_update","title":null,"_meta":{"a":1}}`,
		`{"sessionUpdate":"usage_update","used":1,"size":2,"cost":{"amount":1e-7,"currency":"USD"}}`,
	}, func(u *acpv1.SessionUpdate) bool { return u.Value == nil })
}

func FuzzContentBlock(f *testing.F) {
	deftest.FuzzUnion(f, "v1", "type", deftest.ContentBlockSeeds, func(u *acpv1.ContentBlock) bool { return u.Value == nil })
}
