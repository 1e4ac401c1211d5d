package acpv2test

import (
	"bytes"
	"encoding/json"
	"github.com/acpgen/acpgen/generated/acpv2"
	"reflect"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/internal/deftest"
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
		Bare:    `{"type":"%s","planId":"plan_9"}`,
	},
}

func TestUnknownTagsKeptByteExact(t *testing.T) {
	jsontest.RunUnknownTags(t, definitions, "UpdateSessionNotification", fallbackUnions)
}

func TestFallbackWithoutRaw(t *testing.T) {
	jsontest.RunFallbackWithoutRaw(t, definitions, fallbackUnions)
}

func TestSessionUpdateKnownTags(t *testing.T) {
	type (
		some = jsontest.Some
		list = jsontest.List
	)
	is := jsontest.Is
	jsontest.RunKnownTags(t, definitions, sessionUpdate, append([]jsontest.TagCase{{
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
		Name: "session_info_update",
		In:   `{"sessionUpdate":"session_info_update","title":"Auth work","_meta":{"tags":["a"],"n":9007199254740993}}`,
		Want: is("SessionUpdateSessionInfoUpdate", some{"Meta": some{"Value": jsontest.Contains(jsontest.BigNumber)}}),
	}}, deftest.SessionUpdateKnownTags...))
}

// sessionUpdate is SessionUpdate, alone and in session/update params.
var sessionUpdate = deftest.SessionUpdate("UpdateSessionNotification")

func TestContentBlockKnownTags(t *testing.T) {
	jsontest.RunKnownTags(t, definitions, jsontest.TaggedUnion{Name: "ContentBlock", TagKey: "type"}, deftest.ContentBlockKnownTags)
}

func TestToolCallContentKnownTags(t *testing.T) {
	is := jsontest.Is
	jsontest.RunKnownTags(t, definitions, jsontest.TaggedUnion{Name: "ToolCallContent", TagKey: "type"}, append([]jsontest.TagCase{
		{In: `{"type":"diff","changes":[{"operation":"add","path":"/w/new.go","fileType":"text"}]}`, Want: is("ToolCallContentDiff", jsontest.Some{"Patch": nil, "Changes": jsontest.List{is("DiffChangeAdd", jsontest.Some{"Path": "/w/new.go"})}})},
	}, deftest.ToolCallContentKnownTags...))
}

func TestSharedPayloadVariants(t *testing.T) {
	jsontest.RunSharedPayload(t, definitions, sessionUpdate, `"messageId":"m1","content":{"type":"text","text":"same payload"}`, deftest.ChunkVariants)
}

func TestSessionUpdateDecodeErrors(t *testing.T) {
	jsontest.RunUnionErrors(t, definitions, sessionUpdate, append([]jsontest.ErrorCase{
		{Name: "missing tag", In: `{"messageId":"m","content":{"type":"text","text":"x"}}`, Field: []string{"update"}, Msg: `without "sessionUpdate"`},
		{Name: "null tag is missing", In: `{"sessionUpdate":null,"messageId":"m","content":{"type":"text","text":"x"}}`, Field: []string{"update"}, Msg: `without "sessionUpdate"`},
		{Name: "known tag, content not an object", In: `{"sessionUpdate":"agent_message_chunk","messageId":"m","content":5}`, Field: []string{"update", "content"}},
		{Name: "known tag, content without type", In: `{"sessionUpdate":"agent_message_chunk","messageId":"m","content":{"text":"x"}}`, Field: []string{"update", "content"}, Msg: `without "type"`},
		{Name: "known tag, bad text", In: `{"sessionUpdate":"agent_message_chunk","messageId":"m","content":{"type":"text","text":5}}`, Field: []string{"update", "content", "text"}},
		{Name: "known tag, bad tool content", In: `{"sessionUpdate":"tool_call_content_chunk","toolCallId":"c","content":{"type":"terminal","terminalId":5}}`, Field: []string{"update", "content", "terminalId"}},
		{Name: "known tag, bad plan", In: `{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":{}}}`, Field: []string{"update", "plan", "entries"}},
		{Name: "known tag, state without tag", In: `{"sessionUpdate":"state_update","stopReason":"end_turn"}`, Field: []string{"update", "state"}, Msg: `without "state"`},
	}, deftest.SessionUpdateErrors...))
}

func TestContentBlockDecodeErrors(t *testing.T) {
	jsontest.RunUnionErrors(t, definitions, jsontest.TaggedUnion{
		Name:    "ContentBlock",
		Params:  "UpdateSessionNotification",
		Enclose: `{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","messageId":"m","content":%s}}`,
		At:      "Update.Value.Content",
	}, append([]jsontest.ErrorCase{
		{Name: "known tag, bad uri", In: `{"type":"resource_link","uri":5,"name":"a"}`, Field: []string{"update", "content", "uri"}},
	}, deftest.ContentBlockErrors...))
}

func TestToolCallContentDecodeErrors(t *testing.T) {
	jsontest.RunUnionErrors(t, definitions, jsontest.TaggedUnion{
		Name:    "ToolCallContent",
		Params:  "UpdateSessionNotification",
		Enclose: `{"sessionId":"s","update":{"sessionUpdate":"tool_call_content_chunk","toolCallId":"c","content":%s}}`,
		At:      "Update.Value.Content",
	}, append([]jsontest.ErrorCase{
		{Name: "known tag, bad diff", In: `{"type":"diff","changes":{"operation":"add"}}`, Field: []string{"update", "content", "changes"}},
	}, deftest.ToolCallContentErrors...))
}

func TestPlanUpdateContent(t *testing.T) {
	t.Run("items", func(t *testing.T) {
		in := `{"type":"items","planId":"plan_1","entries":[{"content":"a","priority":"low","status":"completed"}],"_meta":{"n":9007199254740993}}`
		var u acpv2.PlanUpdateContent
		if err := json.Unmarshal([]byte(in), &u); err != nil {
			t.Fatal(err)
		}
		items, ok := u.Value.(*acpv2.PlanUpdateContentItems)
		if !ok || items.PlanID != "plan_1" || len(items.Entries) != 1 || u.Tag() != "items" {
			t.Fatalf("decoded %#v", u.Value)
		}
		jsontest.AssertSame(t, jsontest.Marshal(t, u), []byte(in))
	})
	t.Run("custom type with planId", func(t *testing.T) {
		in := `{"type":"_custom","planId":"plan_2","body":{"z":1,"a":[true]},"_meta":{"n":9007199254740993}}`
		var u acpv2.PlanUpdateContent
		if err := json.Unmarshal([]byte(in), &u); err != nil {
			t.Fatal(err)
		}
		o, ok := u.Value.(*acpv2.PlanUpdateContentOther)
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
	jsontest.RunUnionErrors(t, definitions, jsontest.TaggedUnion{
		Name:    "PlanUpdateContent",
		Params:  "UpdateSessionNotification",
		Enclose: `{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":%s}}`,
		At:      "Update.Value.Plan",
	}, []jsontest.ErrorCase{
		{Name: "custom type without planId", In: `{"type":"_custom","body":1}`, Field: []string{"update", "plan"}, Msg: `without "planId"`},
		{Name: "future type without planId", In: `{"type":"future","body":1}`, Field: []string{"update", "plan"}, Msg: `without "planId"`},
		{Name: "planId not a string", In: `{"type":"_custom","planId":7}`, Field: []string{"update", "plan", "planId"}},
		{Name: "missing type", In: `{"planId":"p","entries":[]}`, Field: []string{"update", "plan"}, Msg: `without "type"`},
		{Name: "not an object", In: `["items"]`, Field: []string{"update", "plan"}, Msg: "array"},
	})
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
			var u acpv2.SessionUpdate
			if err := json.Unmarshal([]byte(tc.in), &u); err != nil {
				t.Fatalf("decode: %v", err)
			}
			var raw json.RawMessage
			switch v := u.Value.(type) {
			case *acpv2.SessionUpdateOther:
				if v.Tag != "plan_removed" || v.IsCustom() {
					t.Errorf("fallback tag %q custom %v", v.Tag, v.IsCustom())
				}
				raw = v.Raw
				if string(raw) != tc.in {
					t.Errorf("Raw = %s", raw)
				}
			case *acpv2.SessionUpdatePlanUpdate:
				skipIfUnstable(t, v.Plan.Value, tc.typeName)
				o, ok := v.Plan.Value.(*acpv2.PlanUpdateContentOther)
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
			var n acpv2.UpdateSessionNotification
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
			var u acpv2.SessionUpdate
			if err := json.Unmarshal([]byte(in), &u); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if _, ok := u.Value.(*acpv2.SessionUpdateStateUpdate); !ok {
				t.Fatalf("variant is %T", u.Value)
			}
			out := jsontest.Marshal(t, u)
			if string(out) != in {
				t.Errorf("re-encoded %s\nwant %s", out, in)
			}
			if n := bytes.Count(out, []byte(`"sessionUpdate"`)); n != 1 {
				t.Errorf("encoding has %d sessionUpdate members", n)
			}
			var again acpv2.SessionUpdate
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
	jsontest.RunUntaggedDef(t, definitions, "RequestId", deftest.RequestIDs("fits none of Number, Str"))
}

func TestEmbeddedResourceData(t *testing.T) {
	jsontest.RunUntaggedDef(t, definitions, "EmbeddedResourceResource", append([]jsontest.UntaggedDefCase{
		{In: `{"text":"","uri":"file:///empty.txt","mimeType":"text/plain"}`, Want: jsontest.Is("EmbeddedResourceDataTextResourceContents", nil)},
		{In: `{"blob":"","uri":"file:///empty.bin","mimeType":"application/octet-stream"}`, Want: jsontest.Is("EmbeddedResourceDataBlobResourceContents", nil)},
	}, deftest.EmbeddedResources...))
}

func TestElicitationContentValue(t *testing.T) {
	other := jsontest.Is("ElicitationContentValueOther", nil)
	jsontest.RunUntaggedDef(t, definitions, "ElicitationContentValue", append([]jsontest.UntaggedDefCase{
		{In: `{"z":1,"a":{"n":9007199254740993}}`, Want: other},
		{In: `{}`, Want: other},
		{In: `[1,"a"]`, Want: other},
		{In: `1e400`, Want: other},
		{In: `{"z":1,"a":2}`, Want: jsontest.Is("ElicitationContentValueOther", jsontest.Some{"Raw": `{"z":1,"a":2}`})},
	}, deftest.ElicitationContentValues...))
}

// TestElicitationContentNull: the Other alternative is any JSON value, null
// included, so a form answer of null must survive a round trip.
func TestElicitationContentNull(t *testing.T) {
	in := `{"answer":null,"name":"x"}`
	var m map[string]acpv2.ElicitationContentValue
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
	jsontest.RunDefCases(t, definitions, "Error", append([]jsontest.DefCase{
		{In: `{"code":-32022,"message":"Unsupported","data":{"requested":3,"supported":[1,2]}}`, Want: deftest.ErrorCode(-32022, true), Valid: true, Exact: true},
		{In: `{"code":-32002,"message":"Not found","data":{"sessionId":"sess_1"}}`, Want: deftest.ErrorCode(-32002, true), Valid: true, Exact: true},
		{In: `{"code":-32099,"message":"Vendor error","data":{"n":9007199254740993}}`, Want: deftest.ErrorCode(-32099, false), Valid: true, Exact: true},
		{In: `{"code":0,"message":"zero","data":"text"}`, Want: deftest.ErrorCode(0, false), Valid: true, Exact: true},
		{In: `{"code":2147483647,"message":"max","data":[1,{"b":2,"a":1}]}`, Want: deftest.ErrorCode(2147483647, false), Valid: true, Exact: true},
		{
			In:   `{"code":-32022,"message":"m","data":{"requested":3,"supported":[1,2]}}`,
			Want: jsontest.Some{"Data": jsontest.Is("ErrorDataUnsupportedProtocolVersion", jsontest.Some{"Supported": jsontest.List{1, 2}})},
		},
	}, deftest.ErrorCodes...))
}

func TestOpenEnums(t *testing.T) {
	jsontest.RunOpenEnums(t, []jsontest.OpenEnumCase{
		{Name: "ToolKind", Decode: jsontest.DecodeEnum[acpv2.ToolKind], Known: "switch_mode", Other: []string{"_browser", "browse", ""}},
		{Name: "ToolCallStatus", Decode: jsontest.DecodeEnum[acpv2.ToolCallStatus], Known: "in_progress", Other: []string{"_queued", "queued"}},
		{Name: "PlanEntryPriority", Decode: jsontest.DecodeEnum[acpv2.PlanEntryPriority], Known: "medium", Other: []string{"_p0", "critical"}},
		{Name: "PlanEntryStatus", Decode: jsontest.DecodeEnum[acpv2.PlanEntryStatus], Known: "completed", Other: []string{"_blocked", "blocked"}},
		{Name: "PermissionOptionKind", Decode: jsontest.DecodeEnum[acpv2.PermissionOptionKind], Known: "allow_once", Other: []string{"_ask_later", "allow_session"}},
		{Name: "Role", Decode: jsontest.DecodeEnum[acpv2.Role], Known: "assistant", Other: []string{"_system", "system"}},
		{Name: "NoticeSeverity", Decode: jsontest.DecodeEnum[acpv2.NoticeSeverity], Known: "warning", Other: []string{"_fatal", "fatal"}},
		{Name: "CompactionStatus", Decode: jsontest.DecodeEnum[acpv2.CompactionStatus], Known: "completed", Other: []string{"_paused", "paused"}},
	})

	// An open enum inside a union keeps its unknown value.
	in := `{"sessionUpdate":"tool_call_update","toolCallId":"c","kind":"_browser","status":"queued"}`
	var u acpv2.SessionUpdate
	if err := json.Unmarshal([]byte(in), &u); err != nil {
		t.Fatalf("decode: %v", err)
	}
	jsontest.AssertSame(t, jsontest.Marshal(t, u), []byte(in))
}

func TestClosedEnums(t *testing.T) {
	v, err := jsontest.DecodeAny[acpv2.ElicitationSchemaType]([]byte(`"object"`))
	if err != nil {
		t.Fatal(err)
	}
	if out := jsontest.Marshal(t, v); string(out) != `"object"` {
		t.Errorf("re-encoded %s", out)
	}
	for _, bad := range []string{`"_custom"`, `"array"`, `""`, `"OBJECT"`} {
		_, err := jsontest.DecodeAny[acpv2.ElicitationSchemaType]([]byte(bad))
		jsontest.AssertTypeError(t, err, nil, bad)
	}
}

// TestNullForPatchFields: where the schema gives null a meaning of its own
// ("null clears it", "null resets it"), null differs from an absent member and
// must survive a round trip.
func TestNullForPatchFields(t *testing.T) {
	jsontest.RunDefCases(t, definitions, "SessionUpdate", []jsontest.DefCase{
		{In: `{"sessionUpdate":"tool_call_update","toolCallId":"c","_meta":null}`, Want: jsontest.NotZero{}, Valid: true},
		{In: `{"sessionUpdate":"tool_call_update","toolCallId":"c","title":null,"name":null}`, Want: jsontest.NotZero{}, Valid: true},
		{In: `{"sessionUpdate":"tool_call_update","toolCallId":"c","kind":null,"status":null,"capabilities":null}`, Want: jsontest.NotZero{}, Valid: true},
		{In: `{"sessionUpdate":"tool_call_update","toolCallId":"c","title":"t","kind":"read"}`, Want: jsontest.NotZero{}, Valid: true},
		{In: `{"sessionUpdate":"usage_update","used":1,"size":2,"cost":null}`, Want: jsontest.NotZero{}, Valid: true},
		{In: `{"sessionUpdate":"session_info_update","title":null,"updatedAt":null}`, Want: jsontest.NotZero{}, Valid: true},
		{In: `{"sessionUpdate":"agent_message","messageId":"m","_meta":null}`, Want: jsontest.NotZero{}, Valid: true},
	})
}
