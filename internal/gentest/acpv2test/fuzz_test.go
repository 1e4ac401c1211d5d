package acpv2test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/deftest"
)

func FuzzSessionUpdate(f *testing.F) {
	deftest.FuzzUnion(f, "v2", "sessionUpdate", []string{
		`{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"Hello"}}`,
		`{"sessionUpdate":"user_message","messageId":"m1","content":[{"type":"resource","resource":{"uri":"file:///a.txt","text":"hi"}},{"type":"_x"}]}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c1","title":null,"kind":"edit","status":"pending","content":[{"type":"diff","changes":[{"operation":"modify","path":"/a","fileType":"text"}],"patch":{"format":"git_patch","text":"@@"}},{"type":"terminal","terminalId":"t1"}],"locations":[],"rawInput":{"n":9007199254740993}}`,
		`{"sessionUpdate":"tool_call_content_chunk","toolCallId":"c1","content":{"type":"content","content":{"type":"image","data":"AA==","mimeType":"image/png"}}}`,
		`{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p1","entries":[{"content":"x","priority":"high","status":"pending"}]}}`,
		`{"sessionUpdate":"state_update","state":"running","background":[]}`,
		`{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}`,
		`{"sessionUpdate":"usage_update","used":1,"size":2,"cost":null}`,
	}, func(u *acpv2.SessionUpdate) bool { return u.Value == nil })
}

func FuzzContentBlock(f *testing.F) {
	deftest.FuzzUnion(f, "v2", "type", deftest.ContentBlockSeeds, func(u *acpv2.ContentBlock) bool { return u.Value == nil })
}
