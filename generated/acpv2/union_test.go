package acpv2

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
		Enclose: `{"sessionId":"sess_1","update":{"sessionUpdate":"agent_message_chunk","messageId":"msg_1","content":%s}}`,
		At:      "Update.Value.(SessionUpdateAgentMessageChunk).Content",
	},
	{
		Name:    "ToolCallContent",
		TagKey:  "type",
		Enclose: `{"sessionId":"sess_1","update":{"sessionUpdate":"tool_call_content_chunk","toolCallId":"call_1","content":%s}}`,
		At:      "Update.Value.(SessionUpdateToolCallContentChunk).Content",
	},
	{
		Name:   "PlanUpdateContent",
		TagKey: "type",
		// Every plan content carries planId, the fallback too.
		Input: func(tag string) string {
			return `{"zeta":"first","type":"` + tag + `","planId":"plan_9","alpha":{"y":true,"b":[3,2,1]},"_meta":` + jsontest.BigMeta + `}`
		},
		Enclose: `{"sessionId":"sess_1","update":{"sessionUpdate":"plan_update","plan":%s}}`,
		At:      "Update.Value.(SessionUpdatePlanUpdate).Plan",
		Want:    jsontest.Some{"PlanID": "plan_9"},
	},
}

func TestUnknownTagsKeptByteExact(t *testing.T) {
	jsontest.RunUnknownTags(t, definitions, "UpdateSessionNotification", fallbackUnions)
}

func TestFallbackWithoutRaw(t *testing.T) {
	cases := []struct {
		v    any
		want string
	}{
		{SessionUpdate{Value: &SessionUpdateOther{Tag: "_x"}}, `{"sessionUpdate":"_x"}`},
		{ContentBlock{Value: &ContentBlockOther{Tag: "future"}}, `{"type":"future"}`},
		{ToolCallContent{Value: &ToolCallContentOther{Tag: "_y"}}, `{"type":"_y"}`},
		{PlanUpdateContent{Value: &PlanUpdateContentOther{Tag: "_z", PlanID: "p1"}}, `{"type":"_z","planId":"p1"}`},
	}
	for _, tc := range cases {
		if out := jsontest.Marshal(t, tc.v); string(out) != tc.want {
			t.Errorf("json.Marshal(%T) = %s, want %s", tc.v, out, tc.want)
		}
	}
	for _, v := range []any{SessionUpdate{}, ContentBlock{}, ToolCallContent{}, PlanUpdateContent{}} {
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
		In:   `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hello","annotations":{"priority":0.5,"audience":["user","assistant"]}},"messageId":"msg_1"}`,
		Want: is("SessionUpdateAgentMessageChunk", some{"MessageID": "msg_1", "Content": is("ContentBlockText", some{
			"Text": "Hello", "Annotations": some{"Audience": list{"user", "assistant"}, "Priority": 0.5},
		})}),
	}, {
		Name: "user_message_chunk",
		In:   `{"sessionUpdate":"user_message_chunk","messageId":"msg_2","content":{"type":"resource_link","uri":"file:///w/a.go","name":"a.go","size":120}}`,
		Want: is("SessionUpdateUserMessageChunk", some{"Content": is("ContentBlockResourceLink", some{"URI": "file:///w/a.go", "Name": "a.go", "Size": 120})}),
	}, {
		Name: "agent_thought_chunk",
		In:   `{"sessionUpdate":"agent_thought_chunk","messageId":"msg_3","content":{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo="}}`,
		Want: is("SessionUpdateAgentThoughtChunk", some{"Content": is("ContentBlockImage", some{"MimeType": "image/png", "Data": "iVBORw0KGgo="})}),
	}, {
		Name: "user_message",
		In:   `{"sessionUpdate":"user_message","messageId":"msg_4","content":[{"type":"text","text":"a"},{"type":"_custom_block","x":1}]}`,
		Want: is("SessionUpdateUserMessage", some{"MessageID": "msg_4", "Content": some{"Present": true, "Value": list{
			is("ContentBlockText", nil),
			is("ContentBlockOther", some{"Tag": "_custom_block"}),
		}}}),
	}, {
		Name: "agent_message with empty content",
		In:   `{"sessionUpdate":"agent_message","messageId":"msg_5","content":[]}`,
		Want: is("SessionUpdateAgentMessage", some{"Content": some{"Present": true, "Null": false, "Value": list{}}}),
	}, {
		Name: "tool_call_update",
		In: `{"sessionUpdate":"tool_call_update","toolCallId":"call_1","title":"Read a.go","kind":"read","status":"in_progress",` +
			`"content":[{"type":"content","content":{"type":"text","text":"ok"}}],"locations":[{"path":"/w/a.go","line":3}],"rawInput":{"n":9007199254740993}}`,
		Want: is("SessionUpdateToolCallUpdate", some{
			"ToolCallID": "call_1",
			"Content":    some{"Value": list{is("ToolCallContentData", nil)}},
			"Locations":  some{"Value": list{jsontest.NotZero{}}},
			"RawInput":   some{"Value": jsontest.Contains(jsontest.BigNumber)},
		}),
	}, {
		Name: "tool_call_content_chunk",
		In:   `{"sessionUpdate":"tool_call_content_chunk","toolCallId":"call_1","content":{"type":"diff","changes":[{"operation":"modify","path":"/w/a.go"},{"operation":"_rename_case","path":"/w/B.go"}],"patch":{"format":"git_patch","text":"@@"}}}`,
		Want: is("SessionUpdateToolCallContentChunk", some{"Content": is("ToolCallContentDiff", some{
			"Changes": list{is("DiffChangeModify", some{"Path": "/w/a.go"}), some{"Tag()": "_rename_case"}},
			"Patch":   some{"Format": "git_patch"},
		})}),
	}, {
		Name: "plan_update",
		In:   `{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"plan_1","entries":[{"content":"Read code","priority":"high","status":"in_progress"},{"content":"Ship","priority":"_p0","status":"pending"}]}}`,
		Want: is("SessionUpdatePlanUpdate", some{"Plan": is("PlanUpdateContentItems", some{"PlanID": "plan_1", "Entries": list{
			some{"Priority": "high"},
			some{"Priority": some{"IsKnown()": false, "IsCustom()": true}},
		}})}),
	}, {
		Name: "state_update",
		In:   `{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}`,
		Want: is("SessionUpdateStateUpdate", some{"StateUpdate": is("StateUpdateIdle", some{"IdleStateUpdate": some{"Tag()": "end_turn"}})}),
	}, {
		Name: "available_commands_update",
		In:   `{"sessionUpdate":"available_commands_update","availableCommands":[{"type":"command","name":"web","description":"Search","input":{"type":"text","hint":"query"}},{"type":"_macro","name":"m","description":"Run macro"}]}`,
		Want: is("SessionUpdateAvailableCommandsUpdate", some{"AvailableCommands": list{is("AvailableCommandData", nil), some{"Tag()": "_macro"}}}),
	}, {
		Name: "usage_update",
		In:   `{"sessionUpdate":"usage_update","used":53000,"size":200000,"cost":{"amount":0.045,"currency":"USD"}}`,
		Want: is("SessionUpdateUsageUpdate", some{"Used": 53000, "Size": 200000}),
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
		Want: is("SessionUpdateSessionInfoUpdate", some{"Meta": some{"Value": jsontest.Contains(jsontest.BigNumber)}}),
	}})
}

// sessionUpdate is SessionUpdate, alone and in session/update params.
var sessionUpdate = jsontest.TaggedUnion{
	Name:    "SessionUpdate",
	TagKey:  "sessionUpdate",
	Params:  "UpdateSessionNotification",
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
		{`{"type":"diff","changes":[{"operation":"add","path":"/w/new.go","fileType":"text"}]}`, func(t *testing.T, v ToolCallContentVariant) {
			d, ok := v.(*ToolCallContentDiff)
			if !ok || len(d.Changes) != 1 || d.Patch != nil {
				t.Fatalf("variant = %#v", v)
			}
			if a, ok := d.Changes[0].Value.(*DiffChangeAdd); !ok || a.Path != "/w/new.go" {
				t.Errorf("change = %#v", d.Changes[0].Value)
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
			in := `{"sessionUpdate":"` + tc.tag + `","messageId":"m1","content":{"type":"text","text":"same payload"}}`
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
			chunk := ContentChunk{MessageID: "m1", Content: ContentBlock{Value: &ContentBlockText{TextContent{Text: "same payload"}}}}
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
		{"missing tag", `{"messageId":"m","content":{"type":"text","text":"x"}}`, []string{"update"}, `without "sessionUpdate"`},
		{"null tag is missing", `{"sessionUpdate":null,"messageId":"m","content":{"type":"text","text":"x"}}`, []string{"update"}, `without "sessionUpdate"`},
		{"number tag", `{"sessionUpdate":5,"content":{"type":"text","text":"x"}}`, []string{"update", "sessionUpdate"}, ""},
		{"bool tag", `{"sessionUpdate":true}`, []string{"update", "sessionUpdate"}, ""},
		{"object tag", `{"sessionUpdate":{"x":1}}`, []string{"update", "sessionUpdate"}, ""},
		{"array", `[{"sessionUpdate":"agent_message_chunk"}]`, []string{"update"}, "array"},
		{"string", `"agent_message_chunk"`, []string{"update"}, "string"},
		{"number", `42`, []string{"update"}, "number"},
		{"bool", `false`, []string{"update"}, "bool"},
		{"known tag, content not an object", `{"sessionUpdate":"agent_message_chunk","messageId":"m","content":5}`, []string{"update", "content"}, ""},
		{"known tag, content without type", `{"sessionUpdate":"agent_message_chunk","messageId":"m","content":{"text":"x"}}`, []string{"update", "content"}, `without "type"`},
		{"known tag, bad text", `{"sessionUpdate":"agent_message_chunk","messageId":"m","content":{"type":"text","text":5}}`, []string{"update", "content", "text"}, ""},
		{"known tag, bad tool content", `{"sessionUpdate":"tool_call_content_chunk","toolCallId":"c","content":{"type":"terminal","terminalId":5}}`, []string{"update", "content", "terminalId"}, ""},
		{"known tag, bad plan", `{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":{}}}`, []string{"update", "plan", "entries"}, ""},
		{"known tag, bad number", `{"sessionUpdate":"usage_update","used":-1,"size":1}`, []string{"update", "used"}, ""},
		{"known tag, state without tag", `{"sessionUpdate":"state_update","stopReason":"end_turn"}`, []string{"update", "state"}, `without "state"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var n UpdateSessionNotification
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
		{"known tag, bad uri", `{"type":"resource_link","uri":5,"name":"a"}`, []string{"update", "content", "uri"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var n UpdateSessionNotification
			err := json.Unmarshal([]byte(`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","messageId":"m","content":`+tc.in+`}}`), &n)
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
		{"known tag, bad diff", `{"type":"diff","changes":{"operation":"add"}}`, []string{"update", "content", "changes"}, ""},
		{"known tag, bad inner block", `{"type":"content","content":{"type":"text","text":{}}}`, []string{"update", "content", "content", "text"}, ""},
		{"known tag, inner block without type", `{"type":"content","content":{"text":"x"}}`, []string{"update", "content", "content"}, `without "type"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var n UpdateSessionNotification
			err := json.Unmarshal([]byte(`{"sessionId":"s","update":{"sessionUpdate":"tool_call_content_chunk","toolCallId":"c","content":`+tc.in+`}}`), &n)
			jsontest.AssertTypeError(t, err, tc.field, tc.msg)

			var u ToolCallContent
			err = json.Unmarshal([]byte(tc.in), &u)
			jsontest.AssertTypeError(t, err, nil, tc.msg)
			if _, other := u.Value.(*ToolCallContentOther); other {
				t.Errorf("decoded into the fallback variant")
			}
		})
	}
}

func TestPlanUpdateContent(t *testing.T) {
	t.Run("items", func(t *testing.T) {
		in := `{"type":"items","planId":"plan_1","entries":[{"content":"a","priority":"low","status":"completed"}],"_meta":{"n":9007199254740993}}`
		var u PlanUpdateContent
		if err := json.Unmarshal([]byte(in), &u); err != nil {
			t.Fatal(err)
		}
		items, ok := u.Value.(*PlanUpdateContentItems)
		if !ok || items.PlanID != "plan_1" || len(items.Entries) != 1 || u.Tag() != "items" {
			t.Fatalf("decoded %#v", u.Value)
		}
		jsontest.AssertSame(t, jsontest.Marshal(t, u), []byte(in))
	})
	t.Run("custom type with planId", func(t *testing.T) {
		in := `{"type":"_custom","planId":"plan_2","body":{"z":1,"a":[true]},"_meta":{"n":9007199254740993}}`
		var u PlanUpdateContent
		if err := json.Unmarshal([]byte(in), &u); err != nil {
			t.Fatal(err)
		}
		o, ok := u.Value.(*PlanUpdateContentOther)
		if !ok {
			t.Fatalf("variant is %T", u.Value)
		}
		if o.Tag != "_custom" || !o.IsCustom() || o.PlanID != "plan_2" || string(o.Raw) != in {
			t.Errorf("fallback = %+v", o)
		}
		if out := jsontest.Marshal(t, u); string(out) != in {
			t.Errorf("re-encoded %s", out)
		}
	})
	for _, tc := range []decodeErrorCase{
		{"custom type without planId", `{"type":"_custom","body":1}`, []string{"update", "plan"}, `without "planId"`},
		{"future type without planId", `{"type":"future","body":1}`, []string{"update", "plan"}, `without "planId"`},
		{"planId not a string", `{"type":"_custom","planId":7}`, []string{"update", "plan", "planId"}, ""},
		{"missing type", `{"planId":"p","entries":[]}`, []string{"update", "plan"}, `without "type"`},
		{"not an object", `["items"]`, []string{"update", "plan"}, "array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var u PlanUpdateContent
			err := json.Unmarshal([]byte(tc.in), &u)
			jsontest.AssertTypeError(t, err, nil, tc.msg)
			if _, other := u.Value.(*PlanUpdateContentOther); other {
				t.Errorf("decoded into the fallback variant")
			}
			var n UpdateSessionNotification
			err = json.Unmarshal([]byte(`{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":`+tc.in+`}}`), &n)
			jsontest.AssertTypeError(t, err, tc.field, tc.msg)
		})
	}
}

// skipIfUnstable skips the test when v is the variant type name, which
// exists only with the unstable build tags; a stable build has no such type
// and must give the fallback.
func skipIfUnstable(t *testing.T, v any, name string) {
	t.Helper()
	if v == nil {
		return
	}
	rt := reflect.TypeOf(v)
	if rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if rt.Name() == name {
		t.Skipf("built with the unstable surface: %s is typed", name)
	}
}

// TestUnstableTagsAreFallbackInStable: plan_removed and the file and markdown
// plan contents belong to the unstable schema only.
func TestUnstableTagsAreFallbackInStable(t *testing.T) {
	updates := []struct {
		name, in, typeName string
	}{
		{"plan_removed", `{"sessionUpdate":"plan_removed","planId":"plan_1","_meta":{"n":9007199254740993,"b":{"y":1,"x":2}}}`, "SessionUpdatePlanRemoved"},
		{"plan file", `{"sessionUpdate":"plan_update","plan":{"type":"file","uri":"file:///w/PLAN.md","planId":"plan_1"}}`, "PlanUpdateContentFile"},
		{"plan markdown", `{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"plan_1","content":"# Plan\n- [ ] a","_meta":{"n":9007199254740993}}}`, "PlanUpdateContentMarkdown"},
	}
	for _, tc := range updates {
		t.Run(tc.name, func(t *testing.T) {
			var u SessionUpdate
			if err := json.Unmarshal([]byte(tc.in), &u); err != nil {
				t.Fatalf("decode: %v", err)
			}
			var raw json.RawMessage
			switch v := u.Value.(type) {
			case *SessionUpdateOther:
				if v.Tag != "plan_removed" || v.IsCustom() {
					t.Errorf("fallback tag %q custom %v", v.Tag, v.IsCustom())
				}
				raw = v.Raw
				if string(raw) != tc.in {
					t.Errorf("Raw = %s", raw)
				}
			case *SessionUpdatePlanUpdate:
				skipIfUnstable(t, v.Plan.Value, tc.typeName)
				o, ok := v.Plan.Value.(*PlanUpdateContentOther)
				if !ok {
					t.Fatalf("plan is %T, want *PlanUpdateContentOther", v.Plan.Value)
				}
				if o.PlanID != "plan_1" || o.IsCustom() || o.Tag != v.Plan.Tag() {
					t.Errorf("fallback = %+v", o)
				}
				if !strings.Contains(tc.in, `"plan":`+string(o.Raw)+`}`) {
					t.Errorf("Raw = %s", o.Raw)
				}
			default:
				skipIfUnstable(t, u.Value, tc.typeName)
				t.Fatalf("variant is %T", u.Value)
			}
			if out := jsontest.Marshal(t, u); string(out) != tc.in {
				t.Errorf("re-encoded %s\nwant %s", out, tc.in)
			}
			params := `{"sessionId":"s","update":` + tc.in + `}`
			var n UpdateSessionNotification
			if err := json.Unmarshal([]byte(params), &n); err != nil {
				t.Fatal(err)
			}
			if out := jsontest.Marshal(t, n); string(out) != params {
				t.Errorf("params re-encoded %s\nwant %s", out, params)
			}
		})
	}
}

// TestNestedUnknownVariants: a variant whose payload is itself a tagged union
// over the same object (state_update → state → stopReason) keeps an unknown
// inner tag and encodes it once, as received.
func TestNestedUnknownVariants(t *testing.T) {
	for _, in := range []string{
		`{"sessionUpdate":"state_update","state":"_paused","reason":"x"}`,
		`{"sessionUpdate":"state_update","state":"future_state"}`,
		`{"sessionUpdate":"state_update","state":"idle","stopReason":"_vendor_stop"}`,
		`{"sessionUpdate":"state_update","state":"idle","stopReason":"future_reason","_meta":{"n":9007199254740993}}`,
	} {
		t.Run(in, func(t *testing.T) {
			var u SessionUpdate
			if err := json.Unmarshal([]byte(in), &u); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if _, ok := u.Value.(*SessionUpdateStateUpdate); !ok {
				t.Fatalf("variant is %T", u.Value)
			}
			out := jsontest.Marshal(t, u)
			if string(out) != in {
				t.Errorf("re-encoded %s\nwant %s", out, in)
			}
			if n := bytes.Count(out, []byte(`"sessionUpdate"`)); n != 1 {
				t.Errorf("encoding has %d sessionUpdate members", n)
			}
			var again SessionUpdate
			if err := json.Unmarshal(out, &again); err != nil {
				t.Fatalf("decode own encoding: %v", err)
			}
			if out2 := jsontest.Marshal(t, again); !bytes.Equal(out2, out) {
				t.Errorf("encoding not stable:\n first %s\nsecond %s", out, out2)
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
		{In: `true`, Want: nil, Msg: "fits none of Number, Str"},
		{In: `{"id":1}`, Want: nil, Msg: "fits none of Number, Str"},
		{In: `[1]`, Want: nil, Msg: "fits none of Number, Str"},
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

func TestEmbeddedResourceData(t *testing.T) {
	text := reflect.TypeOf(&EmbeddedResourceDataTextResourceContents{})
	blob := reflect.TypeOf(&EmbeddedResourceDataBlobResourceContents{})
	jsontest.RunUntagged(t, []jsontest.UntaggedCase{
		{In: `{"text":"hello","uri":"file:///a.txt"}`, Want: text},
		{In: `{"text":"","uri":"file:///empty.txt","mimeType":"text/plain"}`, Want: text},
		{In: `{"blob":"AAEC","uri":"file:///a.bin"}`, Want: blob},
		{In: `{"blob":"","uri":"file:///empty.bin","mimeType":"application/octet-stream"}`, Want: blob},
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
	other := reflect.TypeOf(&ElicitationContentValueOther{})
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
		{In: `{"z":1,"a":{"n":9007199254740993}}`, Want: other},
		{In: `{}`, Want: other},
		{In: `[1,"a"]`, Want: other},
		{In: `1e400`, Want: other},
	}, func(u *ElicitationContentValue) any { return u.Value })

	var u ElicitationContentValue
	if err := json.Unmarshal([]byte(`{"z":1,"a":2}`), &u); err != nil {
		t.Fatal(err)
	}
	if o, ok := u.Value.(*ElicitationContentValueOther); !ok || string(o.Raw) != `{"z":1,"a":2}` {
		t.Errorf("object decoded as %#v", u.Value)
	}
}

// TestElicitationContentNull: the Other alternative is any JSON value, null
// included, so a form answer of null must survive a round trip.
func TestElicitationContentNull(t *testing.T) {
	in := `{"answer":null,"name":"x"}`
	var m map[string]ElicitationContentValue
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatalf("decode: %v", err)
	}
	if v := m["answer"].Value; v == nil {
		t.Errorf("null answer decoded with no variant")
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	jsontest.AssertSame(t, out, []byte(in))
}

func TestErrorCode(t *testing.T) {
	cases := []struct {
		in    string
		code  ErrorCode
		known bool
	}{
		{`{"code":-32601,"message":"Method not found"}`, ErrorCodeMethodNotFound, true},
		{`{"code":-32000,"message":"Auth required"}`, ErrorCodeAuthenticationRequired, true},
		{`{"code":-32022,"message":"Unsupported","data":{"requested":3,"supported":[1,2]}}`, ErrorCodeUnsupportedProtocolVersion, true},
		{`{"code":-32002,"message":"Not found","data":{"sessionId":"sess_1"}}`, ErrorCodeResourceNotFound, true},
		{`{"code":-32099,"message":"Vendor error","data":{"n":9007199254740993}}`, -32099, false},
		{`{"code":0,"message":"zero","data":"text"}`, 0, false},
		{`{"code":2147483647,"message":"max","data":[1,{"b":2,"a":1}]}`, 2147483647, false},
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
	var e Error
	if err := json.Unmarshal([]byte(`{"code":-32022,"message":"m","data":{"requested":3,"supported":[1,2]}}`), &e); err != nil {
		t.Fatal(err)
	}
	if e.Data == nil {
		t.Fatal("no data")
	}
	if d, ok := e.Data.Value.(*ErrorDataUnsupportedProtocolVersion); !ok || len(d.Supported) != 2 {
		t.Errorf("data decoded as %#v", e.Data.Value)
	}
	for _, in := range []string{`{"code":"-32601","message":"m"}`, `{"code":1.5,"message":"m"}`, `{"code":2147483648,"message":"m"}`} {
		var e Error
		jsontest.AssertTypeError(t, json.Unmarshal([]byte(in), &e), []string{"code"}, "")
	}
}

func TestOpenEnums(t *testing.T) {
	jsontest.RunOpenEnums(t, []jsontest.OpenEnumCase{
		{Name: "ToolKind", Decode: jsontest.DecodeEnum[ToolKind], Known: "switch_mode", Other: []string{"_browser", "browse", ""}},
		{Name: "ToolCallStatus", Decode: jsontest.DecodeEnum[ToolCallStatus], Known: "in_progress", Other: []string{"_queued", "queued"}},
		{Name: "PlanEntryPriority", Decode: jsontest.DecodeEnum[PlanEntryPriority], Known: "medium", Other: []string{"_p0", "critical"}},
		{Name: "PlanEntryStatus", Decode: jsontest.DecodeEnum[PlanEntryStatus], Known: "completed", Other: []string{"_blocked", "blocked"}},
		{Name: "PermissionOptionKind", Decode: jsontest.DecodeEnum[PermissionOptionKind], Known: "allow_once", Other: []string{"_ask_later", "allow_session"}},
		{Name: "Role", Decode: jsontest.DecodeEnum[Role], Known: "assistant", Other: []string{"_system", "system"}},
		{Name: "NoticeSeverity", Decode: jsontest.DecodeEnum[NoticeSeverity], Known: "warning", Other: []string{"_fatal", "fatal"}},
		{Name: "CompactionStatus", Decode: jsontest.DecodeEnum[CompactionStatus], Known: "completed", Other: []string{"_paused", "paused"}},
	})

	// An open enum inside a union keeps its unknown value.
	in := `{"sessionUpdate":"tool_call_update","toolCallId":"c","kind":"_browser","status":"queued"}`
	var u SessionUpdate
	if err := json.Unmarshal([]byte(in), &u); err != nil {
		t.Fatalf("decode: %v", err)
	}
	jsontest.AssertSame(t, jsontest.Marshal(t, u), []byte(in))
}

func TestClosedEnums(t *testing.T) {
	v, err := jsontest.DecodeAny[ElicitationSchemaType]([]byte(`"object"`))
	if err != nil {
		t.Fatal(err)
	}
	if out := jsontest.Marshal(t, v); string(out) != `"object"` {
		t.Errorf("re-encoded %s", out)
	}
	for _, bad := range []string{`"_custom"`, `"array"`, `""`, `"OBJECT"`} {
		_, err := jsontest.DecodeAny[ElicitationSchemaType]([]byte(bad))
		jsontest.AssertTypeError(t, err, nil, bad)
	}
}

// TestNullForPatchFields: where the schema gives null a meaning of its own
// ("null clears it", "null resets it"), null differs from an absent member and
// must survive a round trip.
func TestNullForPatchFields(t *testing.T) {
	for _, in := range []string{
		`{"sessionUpdate":"tool_call_update","toolCallId":"c","_meta":null}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c","title":null,"name":null}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c","kind":null,"status":null,"capabilities":null}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c","title":"t","kind":"read"}`,
		`{"sessionUpdate":"usage_update","used":1,"size":2,"cost":null}`,
		`{"sessionUpdate":"session_info_update","title":null,"updatedAt":null}`,
		`{"sessionUpdate":"agent_message","messageId":"m","_meta":null}`,
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
