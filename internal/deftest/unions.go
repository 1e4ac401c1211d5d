// Package deftest holds the cases over the schema's definitions that hold
// for every protocol version: each generated package's tests run them
// through its definitions table (schema name to Go type), next to the cases
// of its own version.
package deftest

import (
	"github.com/acpgen/acpgen/internal/jsontest"
)

type (
	some = jsontest.Some
	list = jsontest.List
)

var is = jsontest.Is

// ContentBlockKnownTags are objects of each known ContentBlock tag.
var ContentBlockKnownTags = []jsontest.TagCase{
	{In: `{"type":"text","text":"hi","_meta":{"n":9007199254740993}}`, Want: is("ContentBlockText", some{"Text": "hi", "Meta": jsontest.Contains(jsontest.BigNumber)})},
	{In: `{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png","uri":"file:///a.png"}`, Want: is("ContentBlockImage", some{"URI": "file:///a.png"})},
	{In: `{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}`, Want: is("ContentBlockAudio", some{"MimeType": "audio/wav"})},
	{In: `{"type":"resource_link","uri":"file:///a.go","name":"a.go","mimeType":"text/x-go","title":"A","description":"d"}`, Want: is("ContentBlockResourceLink", some{"Title": "A", "MimeType": "text/x-go"})},
	{In: `{"type":"resource","resource":{"uri":"file:///a.txt","text":"hello","mimeType":"text/plain"}}`, Want: is("ContentBlockResource", some{"Resource": is("EmbeddedResourceDataTextResourceContents", some{"Text": "hello"})})},
	{In: `{"type":"resource","resource":{"uri":"file:///a.bin","blob":"AAEC","mimeType":"application/octet-stream"}}`, Want: is("ContentBlockResource", some{"Resource": is("EmbeddedResourceDataBlobResourceContents", some{"Blob": "AAEC"})})},
}

// ToolCallContentKnownTags are tool call contents every version reads
// alike.
var ToolCallContentKnownTags = []jsontest.TagCase{
	{In: `{"type":"content","content":{"type":"text","text":"done"}}`, Want: is("ToolCallContentData", some{"Content": some{"Content": is("ContentBlockText", some{"Text": "done"})}})},
	{In: `{"type":"terminal","terminalId":"term_9"}`, Want: is("ToolCallContentTerminal", some{"TerminalID": "term_9"})},
}

// SessionUpdateErrors are SessionUpdate values that must not decode, in
// session/update params at "update".
var SessionUpdateErrors = []jsontest.ErrorCase{
	{Name: "number tag", In: `{"sessionUpdate":5,"content":{"type":"text","text":"x"}}`, Field: []string{"update", "sessionUpdate"}},
	{Name: "bool tag", In: `{"sessionUpdate":true}`, Field: []string{"update", "sessionUpdate"}},
	{Name: "object tag", In: `{"sessionUpdate":{"x":1}}`, Field: []string{"update", "sessionUpdate"}},
	{Name: "array", In: `[{"sessionUpdate":"agent_message_chunk"}]`, Field: []string{"update"}, Msg: "array"},
	{Name: "string", In: `"agent_message_chunk"`, Field: []string{"update"}, Msg: "string"},
	{Name: "number", In: `42`, Field: []string{"update"}, Msg: "number"},
	{Name: "bool", In: `false`, Field: []string{"update"}, Msg: "bool"},
	{Name: "known tag, bad number", In: `{"sessionUpdate":"usage_update","used":-1,"size":1}`, Field: []string{"update", "used"}},
}

// ContentBlockErrors are ContentBlock values that must not decode, in an
// agent message chunk in session/update params.
var ContentBlockErrors = []jsontest.ErrorCase{
	{Name: "missing tag", In: `{"text":"x"}`, Field: []string{"update", "content"}, Msg: `without "type"`},
	{Name: "null tag is missing", In: `{"type":null,"text":"x"}`, Field: []string{"update", "content"}, Msg: `without "type"`},
	{Name: "number tag", In: `{"type":7,"text":"x"}`, Field: []string{"update", "content", "type"}},
	{Name: "array", In: `[{"type":"text","text":"x"}]`, Field: []string{"update", "content"}, Msg: "array"},
	{Name: "string", In: `"text"`, Field: []string{"update", "content"}, Msg: "string"},
	{Name: "known tag, bad text", In: `{"type":"text","text":5}`, Field: []string{"update", "content", "text"}},
	{Name: "known tag, bad image", In: `{"type":"image","data":1,"mimeType":"image/png"}`, Field: []string{"update", "content", "data"}},
	{Name: "known tag, resource not an object", In: `{"type":"resource","resource":"file:///a"}`, Field: []string{"update", "content", "resource"}},
}

// ToolCallContentErrors are ToolCallContent values that must not decode, in
// a tool call's content in session/update params.
var ToolCallContentErrors = []jsontest.ErrorCase{
	{Name: "missing tag", In: `{"terminalId":"t"}`, Field: []string{"update", "content"}, Msg: `without "type"`},
	{Name: "null tag is missing", In: `{"type":null,"terminalId":"t"}`, Field: []string{"update", "content"}, Msg: `without "type"`},
	{Name: "number tag", In: `{"type":1}`, Field: []string{"update", "content", "type"}},
	{Name: "string", In: `"diff"`, Field: []string{"update", "content"}, Msg: "string"},
	{Name: "known tag, bad inner block", In: `{"type":"content","content":{"type":"text","text":{}}}`, Field: []string{"update", "content", "content", "text"}},
	{Name: "known tag, inner block without type", In: `{"type":"content","content":{"text":"x"}}`, Field: []string{"update", "content", "content"}, Msg: `without "type"`},
}

// RequestIDs are the JSON-RPC ids every version takes and refuses; none is
// the message of a value of no alternative.
func RequestIDs(none string) []jsontest.UntaggedDefCase {
	num := func(n int) any { return is("RequestIDNumber", n) }
	str := func(s string) any { return is("RequestIDStr", s) }
	return []jsontest.UntaggedDefCase{
		{In: `0`, Want: num(0)},
		{In: `42`, Want: num(42)},
		{In: `-7`, Want: num(-7)},
		{In: `9007199254740993`, Want: num(9007199254740993)},
		{In: `"req-1"`, Want: str("req-1")},
		{In: `""`, Want: str("")},
		{In: `"42"`, Want: str("42")},
		{In: `true`, Msg: none},
		{In: `{"id":1}`, Msg: none},
		{In: `[1]`, Msg: none},
		{In: `1.5`},
		{In: `18446744073709551616`},
	}
}

// EmbeddedResources are the EmbeddedResource data every version takes and
// refuses, but those whose members the versions write in different orders.
var EmbeddedResources = []jsontest.UntaggedDefCase{
	{In: `{"text":"hello","uri":"file:///a.txt"}`, Want: is("EmbeddedResourceDataTextResourceContents", some{"Text": "hello", "URI": "file:///a.txt"})},
	{In: `{"blob":"AAEC","uri":"file:///a.bin"}`, Want: is("EmbeddedResourceDataBlobResourceContents", some{"Blob": "AAEC", "URI": "file:///a.bin"})},
	{In: `"file:///a.txt"`, Msg: "fits none of TextResourceContents, BlobResourceContents"},
	{In: `[]`, Msg: "fits none of TextResourceContents, BlobResourceContents"},
	{In: `7`, Msg: "fits none of TextResourceContents, BlobResourceContents"},
	{In: `{"uri":"file:///a"}`},
	{In: `{"text":5,"uri":"file:///a"}`},
	{In: `{"uri":"file:///a.bin","blob":"AAEC"}`, Want: is("EmbeddedResourceDataBlobResourceContents", some{"Blob": "AAEC", "URI": "file:///a.bin"}), Enc: `{"blob":"AAEC","uri":"file:///a.bin"}`},
}

// ElicitationContentValues are the form answers every version decodes to
// the same alternative.
var ElicitationContentValues = []jsontest.UntaggedDefCase{
	{In: `"text"`, Want: is("ElicitationContentValueString", "text")},
	{In: `""`, Want: is("ElicitationContentValueString", "")},
	{In: `42`, Want: is("ElicitationContentValueInteger", 42)},
	{In: `-9007199254740993`, Want: is("ElicitationContentValueInteger", -9007199254740993)},
	{In: `1.5`, Want: is("ElicitationContentValueNumber", 1.5)},
	{In: `-0.25`, Want: is("ElicitationContentValueNumber", -0.25)},
	{In: `true`, Want: is("ElicitationContentValueBoolean", true)},
	{In: `false`, Want: is("ElicitationContentValueBoolean", false)},
	{In: `["a","b"]`, Want: is("ElicitationContentValueStringArray", list{"a", "b"})},
	{In: `[]`, Want: is("ElicitationContentValueStringArray", list{})},
}

// ErrorCode is the shape of an Error with the code, which the version knows
// or not.
func ErrorCode(code int, known bool) any {
	return some{"Code": jsontest.All{code, some{"IsKnown()": known}}}
}

// ErrorCodes are JSON-RPC errors whose codes every version reads alike.
var ErrorCodes = []jsontest.DefCase{
	{In: `{"code":-32601,"message":"Method not found"}`, Want: ErrorCode(-32601, true), Valid: true, Exact: true},
	{In: `{"code":-32000,"message":"Auth required"}`, Want: ErrorCode(-32000, true), Valid: true, Exact: true},
	{In: `{"code":"-32601","message":"m"}`, Err: "code", Field: "code"},
	{In: `{"code":1.5,"message":"m"}`, Err: "code", Field: "code"},
	{In: `{"code":2147483648,"message":"m"}`, Err: "code", Field: "code"},
}

// SessionUpdate is the SessionUpdate union, alone and in the session/update
// params of the definition params.
func SessionUpdate(params string) jsontest.TaggedUnion {
	return jsontest.TaggedUnion{
		Name:    "SessionUpdate",
		TagKey:  "sessionUpdate",
		Params:  params,
		Enclose: `{"sessionId":"sess_1","update":%s}`,
		At:      "Update",
	}
}

// ChunkVariants are the SessionUpdate variants that share the ContentChunk
// payload.
var ChunkVariants = []jsontest.TagType{
	{Tag: "user_message_chunk", Type: "SessionUpdateUserMessageChunk"},
	{Tag: "agent_message_chunk", Type: "SessionUpdateAgentMessageChunk"},
	{Tag: "agent_thought_chunk", Type: "SessionUpdateAgentThoughtChunk"},
}

// SessionUpdateKnownTags are session updates every version reads alike.
var SessionUpdateKnownTags = []jsontest.TagCase{{
	Name: "notice with custom severity",
	In:   `{"sessionUpdate":"notice","severity":"_vendor_alert","title":"Heads up","description":"d"}`,
	Want: is("SessionUpdateNotice", some{
		"Severity": jsontest.All{"_vendor_alert", some{"IsKnown()": false, "IsCustom()": true}},
		"Title":    "Heads up",
	}),
}}
