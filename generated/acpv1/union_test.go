package acpv1

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/internal/jsontest"
)

// fallbackUnions are the tagged unions whose unknown variants
// TestUnknownTagsKeptByteExact checks.
var fallbackUnions = []jsontest.FallbackUnion{
	{
		Name:    "SessionUpdate",
		TagKey:  "sessionUpdate",
		Enclose: `{"sessionId":"sess_1","update":%s,"_meta":{"n":9007199254740993}}`,
		At:      "Update",
	},
	{
		Name:    "ContentBlock",
		TagKey:  "type",
		Enclose: `{"sessionId":"sess_1","update":{"sessionUpdate":"agent_message_chunk","content":%s}}`,
		At:      "Update.Value.(SessionUpdateAgentMessageChunk).Content",
	},
	{
		Name:    "ToolCallContent",
		TagKey:  "type",
		Enclose: `{"sessionId":"sess_1","update":{"sessionUpdate":"tool_call","toolCallId":"call_1","title":"Edit","content":[%s]}}`,
		At:      "Update.Value.(SessionUpdateToolCall).Content[0]",
	},
}

func TestUnknownTagsKeptByteExact(t *testing.T) {
	jsontest.RunUnknownTags(t, definitions, "SessionNotification", fallbackUnions)
}

func TestFallbackWithoutRaw(t *testing.T) {
	cases := []struct {
		v    any
		want string
	}{
		{SessionUpdate{Value: &SessionUpdateOther{Tag: "_x"}}, `{"sessionUpdate":"_x"}`},
		{ContentBlock{Value: &ContentBlockOther{Tag: "future"}}, `{"type":"future"}`},
		{ToolCallContent{Value: &ToolCallContentOther{Tag: "_y"}}, `{"type":"_y"}`},
	}
	for _, tc := range cases {
		if out := jsontest.Marshal(t, tc.v); string(out) != tc.want {
			t.Errorf("json.Marshal(%T) = %s, want %s", tc.v, out, tc.want)
		}
	}
	for _, v := range []any{SessionUpdate{}, ContentBlock{}, ToolCallContent{}} {
		if _, err := json.Marshal(v); err == nil {
			t.Errorf("json.Marshal(%T{}) with nil Value succeeded, want error", v)
		}
	}
	if tag := (SessionUpdate{}).Tag(); tag != "" {
		t.Errorf("Tag() of empty union = %q, want empty", tag)
	}
}

func TestSessionUpdateKnownTags(t *testing.T) {
	type (
		some = jsontest.Some
		list = jsontest.List
	)
	is := jsontest.Is
	jsontest.RunKnownTags(t, definitions, sessionUpdate, []jsontest.TagCase{{
		Name: "agent_message_chunk",
		In:   `{"sessionUpdate":"agent_message_chunk","messageId":"msg_1","content":{"type":"text","text":"Hello","annotations":{"priority":0.5,"audience":["user","assistant"]}}}`,
		Want: is("SessionUpdateAgentMessageChunk", some{"MessageID": "msg_1", "Content": is("ContentBlockText", some{
			"Text": "Hello", "Annotations": some{"Audience": list{"user", "assistant"}, "Priority": 0.5},
		})}),
	}, {
		Name: "user_message_chunk",
		In:   `{"sessionUpdate":"user_message_chunk","content":{"type":"resource_link","uri":"file:///w/a.go","name":"a.go","size":120}}`,
		Want: is("SessionUpdateUserMessageChunk", some{"Content": is("ContentBlockResourceLink", some{"URI": "file:///w/a.go", "Name": "a.go", "Size": 120})}),
	}, {
		Name: "agent_thought_chunk",
		In:   `{"sessionUpdate":"agent_thought_chunk","content":{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="}}`,
		Want: is("SessionUpdateAgentThoughtChunk", some{"Content": is("ContentBlockImage", some{"MimeType": "image/png", "Data": "iVBORw0KGgo="})}),
	}, {
		Name: "tool_call",
		In: `{"sessionUpdate":"tool_call","toolCallId":"call_1","title":"Edit main.go","kind":"edit","status":"pending",` +
			`"content":[{"type":"diff","path":"/w/main.go","oldText":"a","newText":"b"},{"type":"content","content":{"type":"text","text":"ok"}},{"type":"terminal","terminalId":"term_1"}],` +
			`"locations":[{"path":"/w/main.go","line":12}],"rawInput":{"path":"/w/main.go","n":9007199254740993}}`,
		Want: is("SessionUpdateToolCall", some{
			"ToolCallID": "call_1", "Title": "Edit main.go", "Kind": "edit", "Status": "pending",
			"Content": list{
				is("ToolCallContentDiff", some{"Path": "/w/main.go", "OldText": "a", "NewText": "b"}),
				is("ToolCallContentData", some{"Content": some{"Content": is("ContentBlockText", some{"Text": "ok"})}}),
				is("ToolCallContentTerminal", some{"TerminalID": "term_1"}),
			},
			"Locations": list{some{"Line": 12}},
			"RawInput":  jsontest.Contains(jsontest.BigNumber),
		}),
	}, {
		Name: "tool_call_update",
		In:   `{"sessionUpdate":"tool_call_update","toolCallId":"call_1","status":"completed","content":[],"rawOutput":{"exit":0}}`,
		Want: is("SessionUpdateToolCallUpdate", some{"Status": "completed", "Content": list{}, "Title": nil, "Kind": nil}),
	}, {
		Name: "plan",
		In:   `{"sessionUpdate":"plan","entries":[{"content":"Read code","priority":"high","status":"in_progress"},{"content":"Write tests","priority":"low","status":"pending"}]}`,
		Want: is("SessionUpdatePlan", some{"Entries": list{some{"Priority": "high"}, some{"Status": "pending"}}}),
	}, {
		Name: "available_commands_update",
		In:   `{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"web","description":"Search","input":{"hint":"query"}},{"name":"test","description":"Run tests"}]}`,
		Want: is("SessionUpdateAvailableCommandsUpdate", some{"AvailableCommands": list{
			some{"Input": is("AvailableCommandInputUnstructured", some{"Hint": "query"})},
			some{"Input": nil},
		}}),
	}, {
		Name: "current_mode_update",
		In:   `{"sessionUpdate":"current_mode_update","currentModeId":"code"}`,
		Want: is("SessionUpdateCurrentModeUpdate", some{"CurrentModeID": "code"}),
	}, {
		Name: "usage_update",
		In:   `{"sessionUpdate":"usage_update","used":53000,"size":200000,"cost":{"amount":0.045,"currency":"USD"}}`,
		Want: is("SessionUpdateUsageUpdate", some{"Used": 53000, "Size": 200000, "Cost": some{"Amount": 0.045, "Currency": "USD"}}),
	}, {
		Name: "notice with custom severity",
		In:   `{"sessionUpdate":"notice","severity":"_vendor_alert","title":"Heads up","description":"d"}`,
		Want: is("SessionUpdateNotice", some{
			"Severity": jsontest.All{"_vendor_alert", some{"IsKnown()": false, "IsCustom()": true}},
			"Title":    "Heads up",
		}),
	}, {
		Name: "session_info_update",
		In:   `{"sessionUpdate":"session_info_update","title":"Auth work","_meta":{"tags":["a"],"n":9007199254740993}}`,
		Want: is("SessionUpdateSessionInfoUpdate", some{"Meta": jsontest.Contains(jsontest.BigNumber)}),
	}, {
		Name: "compaction_update",
		In:   `{"sessionUpdate":"compaction_update","compactionId":"cmp_1","status":"in_progress"}`,
		Want: is("SessionUpdateCompactionUpdate", some{"Status": "in_progress"}),
	}})
}

// sessionUpdate is SessionUpdate, alone and in session/update params.
var sessionUpdate = jsontest.TaggedUnion{
	Name:    "SessionUpdate",
	TagKey:  "sessionUpdate",
	Params:  "SessionNotification",
	Enclose: `{"sessionId":"sess_1","update":%s}`,
	At:      "Update",
}

func TestContentBlockKnownTags(t *testing.T) {
	cases := []struct {
		in   string
		want reflect.Type
	}{
		{`{"type":"text","text":"hi","_meta":{"n":9007199254740993}}`, reflect.TypeOf(&ContentBlockText{})},
		{`{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png","uri":"file:///a.png"}`, reflect.TypeOf(&ContentBlockImage{})},
		{`{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}`, reflect.TypeOf(&ContentBlockAudio{})},
		{`{"type":"resource_link","uri":"file:///a.go","name":"a.go","mimeType":"text/x-go","title":"A","description":"d"}`, reflect.TypeOf(&ContentBlockResourceLink{})},
		{`{"type":"resource","resource":{"uri":"file:///a.txt","text":"hello","mimeType":"text/plain"}}`, reflect.TypeOf(&ContentBlockResource{})},
		{`{"type":"resource","resource":{"uri":"file:///a.bin","blob":"AAEC","mimeType":"application/octet-stream"}}`, reflect.TypeOf(&ContentBlockResource{})},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			var u ContentBlock
			if err := json.Unmarshal([]byte(tc.in), &u); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if got := reflect.TypeOf(u.Value); got != tc.want {
				t.Fatalf("variant is %v, want %v", got, tc.want)
			}
			switch v := u.Value.(type) {
			case *ContentBlockText:
				if v.Text != "hi" || !bytes.Contains(v.Meta, []byte(jsontest.BigNumber)) {
					t.Errorf("text = %+v", v.TextContent)
				}
			case *ContentBlockImage:
				if v.URI == nil || *v.URI != "file:///a.png" {
					t.Errorf("image = %+v", v.ImageContent)
				}
			case *ContentBlockAudio:
				if v.MimeType != "audio/wav" {
					t.Errorf("audio = %+v", v.AudioContent)
				}
			case *ContentBlockResourceLink:
				if v.Title == nil || *v.Title != "A" || v.MimeType == nil || *v.MimeType != "text/x-go" {
					t.Errorf("resource link = %+v", v.ResourceLink)
				}
			case *ContentBlockResource:
				switch r := v.Resource.Value.(type) {
				case *EmbeddedResourceDataTextResourceContents:
					if r.Text != "hello" {
						t.Errorf("text resource = %+v", r.TextResourceContents)
					}
				case *EmbeddedResourceDataBlobResourceContents:
					if r.Blob != "AAEC" {
						t.Errorf("blob resource = %+v", r.BlobResourceContents)
					}
				default:
					t.Errorf("resource is %T", r)
				}
			}
			jsontest.AssertSame(t, jsontest.Marshal(t, u), []byte(tc.in))
		})
	}
}

func TestToolCallContentKnownTags(t *testing.T) {
	cases := []struct {
		in    string
		check func(t *testing.T, v ToolCallContentVariant)
	}{
		{`{"type":"content","content":{"type":"text","text":"done"}}`, func(t *testing.T, v ToolCallContentVariant) {
			c, ok := v.(*ToolCallContentData)
			if !ok {
				t.Fatalf("variant is %T", v)
			}
			if txt, ok := c.Content.Content.Value.(*ContentBlockText); !ok || txt.Text != "done" {
				t.Errorf("content = %#v", c.Content.Content.Value)
			}
		}},
		{`{"type":"diff","path":"/w/new.go","newText":"package w"}`, func(t *testing.T, v ToolCallContentVariant) {
			d, ok := v.(*ToolCallContentDiff)
			if !ok || d.Path != "/w/new.go" || d.OldText != nil || d.NewText != "package w" {
				t.Errorf("variant = %#v", v)
			}
		}},
		{`{"type":"terminal","terminalId":"term_9"}`, func(t *testing.T, v ToolCallContentVariant) {
			if term, ok := v.(*ToolCallContentTerminal); !ok || term.TerminalID != "term_9" {
				t.Errorf("variant = %#v", v)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			var u ToolCallContent
			if err := json.Unmarshal([]byte(tc.in), &u); err != nil {
				t.Fatalf("decode: %v", err)
			}
			tc.check(t, u.Value)
			jsontest.AssertSame(t, jsontest.Marshal(t, u), []byte(tc.in))
		})
	}
}

func TestSharedPayloadVariants(t *testing.T) {
	cases := []struct {
		tag  string
		want reflect.Type
		make func(ContentChunk) SessionUpdateVariant
	}{
		{"user_message_chunk", reflect.TypeOf(&SessionUpdateUserMessageChunk{}), func(c ContentChunk) SessionUpdateVariant { return &SessionUpdateUserMessageChunk{c} }},
		{"agent_message_chunk", reflect.TypeOf(&SessionUpdateAgentMessageChunk{}), func(c ContentChunk) SessionUpdateVariant { return &SessionUpdateAgentMessageChunk{c} }},
		{"agent_thought_chunk", reflect.TypeOf(&SessionUpdateAgentThoughtChunk{}), func(c ContentChunk) SessionUpdateVariant { return &SessionUpdateAgentThoughtChunk{c} }},
	}
	seen := map[reflect.Type]string{}
	for _, tc := range cases {
		t.Run(tc.tag, func(t *testing.T) {
			in := `{"sessionUpdate":"` + tc.tag + `","content":{"type":"text","text":"same payload"}}`
			var u SessionUpdate
			if err := json.Unmarshal([]byte(in), &u); err != nil {
				t.Fatalf("decode: %v", err)
			}
			got := reflect.TypeOf(u.Value)
			if got != tc.want {
				t.Fatalf("variant is %v, want %v", got, tc.want)
			}
			if other, dup := seen[got]; dup {
				t.Errorf("%s and %s decode to the same type %v", other, tc.tag, got)
			}
			seen[got] = tc.tag
			if u.Tag() != tc.tag {
				t.Errorf("Tag() = %q", u.Tag())
			}
			out := jsontest.Marshal(t, u)
			if !bytes.Equal(out, []byte(in)) {
				t.Errorf("re-encoded %s, want %s", out, in)
			}

			// Built by hand from the shared payload, each writes its own tag.
			chunk := ContentChunk{Content: ContentBlock{Value: &ContentBlockText{TextContent{Text: "same payload"}}}}
			built := SessionUpdate{Value: tc.make(chunk)}
			if built.Tag() != tc.tag {
				t.Errorf("built Tag() = %q", built.Tag())
			}
			if out := jsontest.Marshal(t, built); string(out) != in {
				t.Errorf("built encodes as %s, want %s", out, in)
			}
		})
	}
}

// decodeErrorCase is JSON that must not decode; field lists parts the error's
// JSON path must contain, in order.
type decodeErrorCase struct {
	name  string
	in    string
	field []string
	msg   string // substring of the message, if set
}

func TestSessionUpdateDecodeErrors(t *testing.T) {
	cases := []decodeErrorCase{
		{"missing tag", `{"content":{"type":"text","text":"x"}}`, []string{"update"}, `without "sessionUpdate"`},
		{"null tag is missing", `{"sessionUpdate":null,"content":{"type":"text","text":"x"}}`, []string{"update"}, `without "sessionUpdate"`},
		{"number tag", `{"sessionUpdate":5,"content":{"type":"text","text":"x"}}`, []string{"update", "sessionUpdate"}, ""},
		{"bool tag", `{"sessionUpdate":true}`, []string{"update", "sessionUpdate"}, ""},
		{"object tag", `{"sessionUpdate":{"x":1}}`, []string{"update", "sessionUpdate"}, ""},
		{"array", `[{"sessionUpdate":"agent_message_chunk"}]`, []string{"update"}, "array"},
		{"string", `"agent_message_chunk"`, []string{"update"}, "string"},
		{"number", `42`, []string{"update"}, "number"},
		{"bool", `false`, []string{"update"}, "bool"},
		{"known tag, content not an object", `{"sessionUpdate":"agent_message_chunk","content":5}`, []string{"update", "content"}, ""},
		{"known tag, content without type", `{"sessionUpdate":"agent_message_chunk","content":{"text":"x"}}`, []string{"update", "content"}, `without "type"`},
		{"known tag, bad text", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":5}}`, []string{"update", "content", "text"}, ""},
		{"known tag, bad number", `{"sessionUpdate":"usage_update","used":-1,"size":1}`, []string{"update", "used"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var n SessionNotification
			err := json.Unmarshal([]byte(`{"sessionId":"s","update":`+tc.in+`}`), &n)
			jsontest.AssertTypeError(t, err, tc.field, tc.msg)
			if _, other := n.Update.Value.(*SessionUpdateOther); other {
				t.Errorf("decoded into the fallback variant: %s", n.Update.Value.(*SessionUpdateOther).Raw)
			}

			var u SessionUpdate
			err = json.Unmarshal([]byte(tc.in), &u)
			jsontest.AssertTypeError(t, err, nil, tc.msg)
			if _, other := u.Value.(*SessionUpdateOther); other {
				t.Errorf("decoded into the fallback variant")
			}
		})
	}
}

func TestContentBlockDecodeErrors(t *testing.T) {
	cases := []decodeErrorCase{
		{"missing tag", `{"text":"x"}`, []string{"update", "content"}, `without "type"`},
		{"null tag is missing", `{"type":null,"text":"x"}`, []string{"update", "content"}, `without "type"`},
		{"number tag", `{"type":7,"text":"x"}`, []string{"update", "content", "type"}, ""},
		{"array", `[{"type":"text","text":"x"}]`, []string{"update", "content"}, "array"},
		{"string", `"text"`, []string{"update", "content"}, "string"},
		{"known tag, bad text", `{"type":"text","text":5}`, []string{"update", "content", "text"}, ""},
		{"known tag, bad image", `{"type":"image","data":1,"mimeType":"image/png"}`, []string{"update", "content", "data"}, ""},
		{"known tag, resource not an object", `{"type":"resource","resource":"file:///a"}`, []string{"update", "content", "resource"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var n SessionNotification
			err := json.Unmarshal([]byte(`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":`+tc.in+`}}`), &n)
			jsontest.AssertTypeError(t, err, tc.field, tc.msg)

			var u ContentBlock
			err = json.Unmarshal([]byte(tc.in), &u)
			jsontest.AssertTypeError(t, err, nil, tc.msg)
			if _, other := u.Value.(*ContentBlockOther); other {
				t.Errorf("decoded into the fallback variant")
			}
		})
	}
}

func TestToolCallContentDecodeErrors(t *testing.T) {
	cases := []decodeErrorCase{
		{"missing tag", `{"terminalId":"t"}`, []string{"update", "content"}, `without "type"`},
		{"null tag is missing", `{"type":null,"terminalId":"t"}`, []string{"update", "content"}, `without "type"`},
		{"number tag", `{"type":1}`, []string{"update", "content", "type"}, ""},
		{"string", `"diff"`, []string{"update", "content"}, "string"},
		{"known tag, bad diff", `{"type":"diff","path":"/a","newText":["x"]}`, []string{"update", "content", "newText"}, ""},
		{"known tag, bad inner block", `{"type":"content","content":{"type":"text","text":{}}}`, []string{"update", "content", "content", "text"}, ""},
		{"known tag, inner block without type", `{"type":"content","content":{"text":"x"}}`, []string{"update", "content", "content"}, `without "type"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// ToolCall.content drops the items that fail to decode
			// (x-deserialize-skip-invalid-items), as the reference does.
			var n SessionNotification
			err := json.Unmarshal([]byte(`{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"t","content":[`+tc.in+`,{"type":"terminal","terminalId":"ok"}]}}`), &n)
			if err != nil {
				t.Fatalf("an invalid item failed the whole update: %v", err)
			}
			if call := n.Update.Value.(*SessionUpdateToolCall); len(call.Content) != 1 {
				t.Errorf("content has %d items, want the valid one only", len(call.Content))
			}

			var u ToolCallContent
			err = json.Unmarshal([]byte(tc.in), &u)
			jsontest.AssertTypeError(t, err, nil, tc.msg)
			if _, other := u.Value.(*ToolCallContentOther); other {
				t.Errorf("decoded into the fallback variant")
			}
		})
	}
}

func TestRequestID(t *testing.T) {
	num, str := reflect.TypeOf(RequestIDNumber(0)), reflect.TypeOf(RequestIDStr(""))
	jsontest.RunUntagged(t, []jsontest.UntaggedCase{
		{In: `0`, Want: num},
		{In: `42`, Want: num},
		{In: `-7`, Want: num},
		{In: `9007199254740993`, Want: num},
		{In: `"req-1"`, Want: str},
		{In: `""`, Want: str},
		{In: `"42"`, Want: str},
		{In: `true`, Want: nil, Msg: "fits none of Null, Number, Str"},
		{In: `{"id":1}`, Want: nil, Msg: "fits none of Null, Number, Str"},
		{In: `[1]`, Want: nil, Msg: "fits none of Null, Number, Str"},
		{In: `1.5`, Want: nil},
		{In: `18446744073709551616`, Want: nil},
	}, func(u *RequestID) any { return u.Value })

	for _, in := range []string{`42`, `"42"`} {
		var u RequestID
		if err := json.Unmarshal([]byte(in), &u); err != nil {
			t.Fatal(err)
		}
		switch v := u.Value.(type) {
		case RequestIDNumber:
			if in != "42" || v != 42 {
				t.Errorf("%s gave number %d", in, v)
			}
		case RequestIDStr:
			if in != `"42"` || v != "42" {
				t.Errorf("%s gave string %q", in, v)
			}
		default:
			t.Errorf("%s gave %T", in, v)
		}
	}
}

func TestRequestIDNull(t *testing.T) {
	for _, in := range []string{`null`, `{"v":null}`} {
		var u RequestID
		var err error
		if in == "null" {
			err = json.Unmarshal([]byte(in), &u)
		} else {
			var s struct {
				V RequestID `json:"v"`
			}
			err = json.Unmarshal([]byte(in), &s)
			u = s.V
		}
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		switch u.Value.(type) {
		case RequestIDNull, *RequestIDNull:
		default:
			t.Fatalf("%s: variant is %T, want RequestIDNull", in, u.Value)
		}
		if out := jsontest.Marshal(t, u); string(out) != "null" {
			t.Errorf("%s: re-encoded %s", in, out)
		}
	}
	if out := jsontest.Marshal(t, RequestID{Value: &RequestIDNull{}}); string(out) != "null" {
		t.Errorf("*RequestIDNull encodes as %s", out)
	}
}

func TestEmbeddedResourceData(t *testing.T) {
	text := reflect.TypeOf(&EmbeddedResourceDataTextResourceContents{})
	blob := reflect.TypeOf(&EmbeddedResourceDataBlobResourceContents{})
	jsontest.RunUntagged(t, []jsontest.UntaggedCase{
		{In: `{"text":"hello","uri":"file:///a.txt"}`, Want: text},
		{In: `{"mimeType":"text/plain","text":"","uri":"file:///empty.txt"}`, Want: text},
		{In: `{"blob":"AAEC","uri":"file:///a.bin"}`, Want: blob},
		{In: `{"blob":"","mimeType":"application/octet-stream","uri":"file:///empty.bin"}`, Want: blob},
		{In: `"file:///a.txt"`, Want: nil, Msg: "fits none of TextResourceContents, BlobResourceContents"},
		{In: `[]`, Want: nil, Msg: "fits none of TextResourceContents, BlobResourceContents"},
		{In: `7`, Want: nil, Msg: "fits none of TextResourceContents, BlobResourceContents"},
		{In: `{"uri":"file:///a"}`, Want: nil},
		{In: `{"text":5,"uri":"file:///a"}`, Want: nil},
	}, func(u *EmbeddedResourceData) any { return u.Value })

	var u EmbeddedResourceData
	if err := json.Unmarshal([]byte(`{"uri":"file:///a.bin","blob":"AAEC"}`), &u); err != nil {
		t.Fatal(err)
	}
	if b, ok := u.Value.(*EmbeddedResourceDataBlobResourceContents); !ok || b.Blob != "AAEC" || b.URI != "file:///a.bin" {
		t.Errorf("blob resource decoded as %#v", u.Value)
	}
}

func TestElicitationContentValue(t *testing.T) {
	jsontest.RunUntagged(t, []jsontest.UntaggedCase{
		{In: `"text"`, Want: reflect.TypeOf(ElicitationContentValueString(""))},
		{In: `""`, Want: reflect.TypeOf(ElicitationContentValueString(""))},
		{In: `42`, Want: reflect.TypeOf(ElicitationContentValueInteger(0))},
		{In: `-9007199254740993`, Want: reflect.TypeOf(ElicitationContentValueInteger(0))},
		{In: `1.5`, Want: reflect.TypeOf(ElicitationContentValueNumber(0))},
		{In: `-0.25`, Want: reflect.TypeOf(ElicitationContentValueNumber(0))},
		{In: `true`, Want: reflect.TypeOf(ElicitationContentValueBoolean(false))},
		{In: `false`, Want: reflect.TypeOf(ElicitationContentValueBoolean(false))},
		{In: `["a","b"]`, Want: reflect.TypeOf(ElicitationContentValueStringArray(nil))},
		{In: `[]`, Want: reflect.TypeOf(ElicitationContentValueStringArray(nil))},
		{In: `{"a":1}`, Want: nil, Msg: "fits none of String, Integer, Number, Boolean, StringArray"},
		{In: `{}`, Want: nil, Msg: "fits none of String, Integer, Number, Boolean, StringArray"},
		{In: `[1,2]`, Want: nil},
		{In: `1e400`, Want: nil},
	}, func(u *ElicitationContentValue) any { return u.Value })

	var u ElicitationContentValue
	if err := json.Unmarshal([]byte(`9007199254740993`), &u); err != nil {
		t.Fatal(err)
	}
	if v, ok := u.Value.(ElicitationContentValueInteger); !ok || v != 9007199254740993 {
		t.Errorf("large integer decoded as %#v", u.Value)
	}
}

func TestErrorCode(t *testing.T) {
	cases := []struct {
		in    string
		code  ErrorCode
		known bool
	}{
		{`{"code":-32601,"message":"Method not found"}`, ErrorCodeMethodNotFound, true},
		{`{"code":-32000,"message":"Auth required"}`, ErrorCodeAuthenticationRequired, true},
		{`{"code":-32800,"message":"Cancelled","data":{"n":9007199254740993}}`, ErrorCodeRequestCancelled, true},
		{`{"code":-32099,"message":"Vendor error"}`, -32099, false},
		{`{"code":-32022,"message":"Defined only in v2"}`, -32022, false},
		{`{"code":0,"message":"zero"}`, 0, false},
		{`{"code":2147483647,"message":"max"}`, 2147483647, false},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			var e Error
			if err := json.Unmarshal([]byte(tc.in), &e); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if e.Code != tc.code || e.Code.IsKnown() != tc.known {
				t.Errorf("code %d known %v, want %d %v", e.Code, e.Code.IsKnown(), tc.code, tc.known)
			}
			if out := jsontest.Marshal(t, e); string(out) != tc.in {
				t.Errorf("re-encoded %s, want %s", out, tc.in)
			}
		})
	}
	for _, in := range []string{`{"code":"-32601","message":"m"}`, `{"code":1.5,"message":"m"}`, `{"code":2147483648,"message":"m"}`} {
		var e Error
		jsontest.AssertTypeError(t, json.Unmarshal([]byte(in), &e), []string{"code"}, "")
	}
}

func TestOpenEnums(t *testing.T) {
	jsontest.RunOpenEnums(t, []jsontest.OpenEnumCase{
		{Name: "CompactionStatus", Decode: jsontest.DecodeEnum[CompactionStatus], Known: "completed", Other: []string{"_paused", "paused", ""}},
		{Name: "NoticeSeverity", Decode: jsontest.DecodeEnum[NoticeSeverity], Known: "warning", Other: []string{"_fatal", "fatal"}},
		{Name: "SessionConfigOptionCategory", Decode: jsontest.DecodeEnum[SessionConfigOptionCategory], Known: "model", Other: []string{"_vendor", "future"}},
	})
}

func TestClosedEnums(t *testing.T) {
	type closed struct {
		name   string
		decode func([]byte) (any, error)
		known  string
	}
	enums := []closed{
		{"ToolKind", jsontest.DecodeAny[ToolKind], "switch_mode"},
		{"ToolCallStatus", jsontest.DecodeAny[ToolCallStatus], "in_progress"},
		{"PlanEntryPriority", jsontest.DecodeAny[PlanEntryPriority], "medium"},
		{"PlanEntryStatus", jsontest.DecodeAny[PlanEntryStatus], "completed"},
		{"PermissionOptionKind", jsontest.DecodeAny[PermissionOptionKind], "allow_once"},
		{"Role", jsontest.DecodeAny[Role], "assistant"},
		{"StopReason", jsontest.DecodeAny[StopReason], "end_turn"},
	}
	for _, e := range enums {
		t.Run(e.name, func(t *testing.T) {
			in := `"` + e.known + `"`
			v, err := e.decode([]byte(in))
			if err != nil {
				t.Fatalf("known %s: %v", in, err)
			}
			if out := jsontest.Marshal(t, v); string(out) != in {
				t.Errorf("re-encoded %s, want %s", out, in)
			}
			for _, bad := range []string{`"_custom"`, `"future_value"`, `""`, `"` + strings.ToUpper(e.known) + `"`} {
				_, err := e.decode([]byte(bad))
				jsontest.AssertTypeError(t, err, nil, bad)
			}
			_, err = e.decode([]byte(`5`))
			jsontest.AssertTypeError(t, err, nil, "")
		})
	}
	if _, ok := any(ToolKindEdit).(interface{ IsCustom() bool }); ok {
		t.Error("closed enum ToolKind has IsCustom")
	}
}

// TestNullForPatchFields: session_info_update says "Set to null to clear" for
// title and updatedAt, so null differs from an absent member and must survive
// a round trip.
func TestNullForPatchFields(t *testing.T) {
	for _, in := range []string{
		`{"sessionUpdate":"session_info_update","_meta":null}`,
		`{"sessionUpdate":"session_info_update","title":null}`,
		`{"sessionUpdate":"session_info_update","updatedAt":null,"title":"t"}`,
	} {
		t.Run(in, func(t *testing.T) {
			var u SessionUpdate
			if err := json.Unmarshal([]byte(in), &u); err != nil {
				t.Fatalf("decode: %v", err)
			}
			jsontest.AssertSame(t, jsontest.Marshal(t, u), []byte(in))
		})
	}
}

// TestSessionUpdateLenient: members with x-deserialize-* rules take their
// default, or drop invalid items, instead of failing the update.
func TestSessionUpdateLenient(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		check    func(SessionUpdateVariant) bool
	}{
		{"invalid tool content item dropped", `{"sessionUpdate":"tool_call","toolCallId":"c","title":"t","content":[{"type":"diff","path":5,"newText":"x"}]}`,
			func(v SessionUpdateVariant) bool { return len(v.(*SessionUpdateToolCall).Content) == 0 }},
		{"unknown closed-enum value defaulted", `{"sessionUpdate":"tool_call","toolCallId":"c","title":"t","kind":"_custom"}`,
			func(v SessionUpdateVariant) bool { return v.(*SessionUpdateToolCall).Kind == nil }},
		{"invalid plan entry dropped", `{"sessionUpdate":"plan","entries":[{"content":"x","priority":"urgent","status":"pending"},{"content":"y","priority":"low","status":"pending"}]}`,
			func(v SessionUpdateVariant) bool {
				e := v.(*SessionUpdatePlan).Entries
				return len(e) == 1 && e[0].Content == "y"
			}},
		{"unknown audience dropped", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x","annotations":{"audience":["robot","user"]}}}`,
			func(v SessionUpdateVariant) bool {
				a := v.(*SessionUpdateAgentMessageChunk).Content.Value.(*ContentBlockText).Annotations
				return a != nil && len(a.Audience) == 1 && a.Audience[0] == RoleUser
			}},
	} {
		var u SessionUpdate
		if err := json.Unmarshal([]byte(tc.in), &u); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !tc.check(u.Value) {
			t.Errorf("%s: decoded to %+v", tc.name, u.Value)
		}
	}
}
