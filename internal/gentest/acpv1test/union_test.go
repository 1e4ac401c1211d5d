package acpv1test

import (
	"encoding/json"
	"github.com/acpgen/acpgen/generated/acpv1"
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
		Name: "session_info_update",
		In:   `{"sessionUpdate":"session_info_update","title":"Auth work","_meta":{"tags":["a"],"n":9007199254740993}}`,
		Want: is("SessionUpdateSessionInfoUpdate", some{"Meta": jsontest.Contains(jsontest.BigNumber)}),
	}, {
		Name: "compaction_update",
		In:   `{"sessionUpdate":"compaction_update","compactionId":"cmp_1","status":"in_progress"}`,
		Want: is("SessionUpdateCompactionUpdate", some{"Status": "in_progress"}),
	}}, deftest.SessionUpdateKnownTags...))
}

// sessionUpdate is SessionUpdate, alone and in session/update params.
var sessionUpdate = deftest.SessionUpdate("SessionNotification")

func TestContentBlockKnownTags(t *testing.T) {
	jsontest.RunKnownTags(t, definitions, jsontest.TaggedUnion{Name: "ContentBlock", TagKey: "type"}, deftest.ContentBlockKnownTags)
}

func TestToolCallContentKnownTags(t *testing.T) {
	is := jsontest.Is
	jsontest.RunKnownTags(t, definitions, jsontest.TaggedUnion{Name: "ToolCallContent", TagKey: "type"}, append([]jsontest.TagCase{
		{In: `{"type":"diff","path":"/w/new.go","newText":"package w"}`, Want: is("ToolCallContentDiff", jsontest.Some{"Path": "/w/new.go", "OldText": nil, "NewText": "package w"})},
	}, deftest.ToolCallContentKnownTags...))
}

func TestSharedPayloadVariants(t *testing.T) {
	jsontest.RunSharedPayload(t, definitions, sessionUpdate, `"content":{"type":"text","text":"same payload"}`, deftest.ChunkVariants)
}

func TestSessionUpdateDecodeErrors(t *testing.T) {
	jsontest.RunUnionErrors(t, definitions, sessionUpdate, append([]jsontest.ErrorCase{
		{Name: "missing tag", In: `{"content":{"type":"text","text":"x"}}`, Field: []string{"update"}, Msg: `without "sessionUpdate"`},
		{Name: "null tag is missing", In: `{"sessionUpdate":null,"content":{"type":"text","text":"x"}}`, Field: []string{"update"}, Msg: `without "sessionUpdate"`},
		{Name: "known tag, content not an object", In: `{"sessionUpdate":"agent_message_chunk","content":5}`, Field: []string{"update", "content"}},
		{Name: "known tag, content without type", In: `{"sessionUpdate":"agent_message_chunk","content":{"text":"x"}}`, Field: []string{"update", "content"}, Msg: `without "type"`},
		{Name: "known tag, bad text", In: `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":5}}`, Field: []string{"update", "content", "text"}},
	}, deftest.SessionUpdateErrors...))
}

func TestContentBlockDecodeErrors(t *testing.T) {
	jsontest.RunUnionErrors(t, definitions, jsontest.TaggedUnion{
		Name:    "ContentBlock",
		Params:  "SessionNotification",
		Enclose: `{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":%s}}`,
		At:      "Update.Value.Content",
	}, deftest.ContentBlockErrors)
}

// ToolCall.content drops the items that fail to decode
// (x-deserialize-skip-invalid-items), as the reference does.
func TestToolCallContentDecodeErrors(t *testing.T) {
	jsontest.RunUnionErrors(t, definitions, jsontest.TaggedUnion{
		Name:    "ToolCallContent",
		Params:  "SessionNotification",
		Enclose: `{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"t","content":[%s,{"type":"terminal","terminalId":"ok"}]}}`,
		At:      "Update.Value.(SessionUpdateToolCall).Content",
		Dropped: true,
	}, append([]jsontest.ErrorCase{
		{Name: "known tag, bad diff", In: `{"type":"diff","path":"/a","newText":["x"]}`, Field: []string{"update", "content", "newText"}},
	}, deftest.ToolCallContentErrors...))
}

func TestRequestID(t *testing.T) {
	jsontest.RunUntaggedDef(t, definitions, "RequestId", deftest.RequestIDs("fits none of Null, Number, Str"))
}

func TestRequestIDNull(t *testing.T) {
	for _, in := range []string{`null`, `{"v":null}`} {
		var u acpv1.RequestID
		var err error
		if in == "null" {
			err = json.Unmarshal([]byte(in), &u)
		} else {
			var s struct {
				V acpv1.RequestID `json:"v"`
			}
			err = json.Unmarshal([]byte(in), &s)
			u = s.V
		}
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		switch u.Value.(type) {
		case acpv1.RequestIDNull, *acpv1.RequestIDNull:
		default:
			t.Fatalf("%s: variant is %T, want RequestIDNull", in, u.Value)
		}
		if out := jsontest.Marshal(t, u); string(out) != "null" {
			t.Errorf("%s: re-encoded %s", in, out)
		}
	}
	if out := jsontest.Marshal(t, acpv1.RequestID{Value: &acpv1.RequestIDNull{}}); string(out) != "null" {
		t.Errorf("*RequestIDNull encodes as %s", out)
	}
}

func TestEmbeddedResourceData(t *testing.T) {
	jsontest.RunUntaggedDef(t, definitions, "EmbeddedResourceResource", append([]jsontest.UntaggedDefCase{
		{In: `{"mimeType":"text/plain","text":"","uri":"file:///empty.txt"}`, Want: jsontest.Is("EmbeddedResourceDataTextResourceContents", nil)},
		{In: `{"blob":"","mimeType":"application/octet-stream","uri":"file:///empty.bin"}`, Want: jsontest.Is("EmbeddedResourceDataBlobResourceContents", nil)},
	}, deftest.EmbeddedResources...))
}

func TestElicitationContentValue(t *testing.T) {
	jsontest.RunUntaggedDef(t, definitions, "ElicitationContentValue", append([]jsontest.UntaggedDefCase{
		{In: `9007199254740993`, Want: jsontest.Is("ElicitationContentValueInteger", 9007199254740993)},
		{In: `{"a":1}`, Msg: "fits none of String, Integer, Number, Boolean, StringArray"},
		{In: `{}`, Msg: "fits none of String, Integer, Number, Boolean, StringArray"},
		{In: `[1,2]`},
		{In: `1e400`},
	}, deftest.ElicitationContentValues...))
}

func TestErrorCode(t *testing.T) {
	jsontest.RunDefCases(t, definitions, "Error", append([]jsontest.DefCase{
		{In: `{"code":-32800,"message":"Cancelled","data":{"n":9007199254740993}}`, Want: deftest.ErrorCode(-32800, true), Valid: true, Exact: true},
		{In: `{"code":-32099,"message":"Vendor error"}`, Want: deftest.ErrorCode(-32099, false), Valid: true, Exact: true},
		{In: `{"code":-32022,"message":"Defined only in v2"}`, Want: deftest.ErrorCode(-32022, false), Valid: true, Exact: true},
		{In: `{"code":0,"message":"zero"}`, Want: deftest.ErrorCode(0, false), Valid: true, Exact: true},
		{In: `{"code":2147483647,"message":"max"}`, Want: deftest.ErrorCode(2147483647, false), Valid: true, Exact: true},
	}, deftest.ErrorCodes...))
}

func TestOpenEnums(t *testing.T) {
	jsontest.RunOpenEnums(t, []jsontest.OpenEnumCase{
		{Name: "CompactionStatus", Decode: jsontest.DecodeEnum[acpv1.CompactionStatus], Known: "completed", Other: []string{"_paused", "paused", ""}},
		{Name: "NoticeSeverity", Decode: jsontest.DecodeEnum[acpv1.NoticeSeverity], Known: "warning", Other: []string{"_fatal", "fatal"}},
		{Name: "SessionConfigOptionCategory", Decode: jsontest.DecodeEnum[acpv1.SessionConfigOptionCategory], Known: "model", Other: []string{"_vendor", "future"}},
	})
}

func TestClosedEnums(t *testing.T) {
	type closed struct {
		name   string
		decode func([]byte) (any, error)
		known  string
	}
	enums := []closed{
		{"ToolKind", jsontest.DecodeAny[acpv1.ToolKind], "switch_mode"},
		{"ToolCallStatus", jsontest.DecodeAny[acpv1.ToolCallStatus], "in_progress"},
		{"PlanEntryPriority", jsontest.DecodeAny[acpv1.PlanEntryPriority], "medium"},
		{"PlanEntryStatus", jsontest.DecodeAny[acpv1.PlanEntryStatus], "completed"},
		{"PermissionOptionKind", jsontest.DecodeAny[acpv1.PermissionOptionKind], "allow_once"},
		{"Role", jsontest.DecodeAny[acpv1.Role], "assistant"},
		{"StopReason", jsontest.DecodeAny[acpv1.StopReason], "end_turn"},
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
	if _, ok := any(acpv1.ToolKindEdit).(interface{ IsCustom() bool }); ok {
		t.Error("closed enum ToolKind has IsCustom")
	}
}

// TestNullForPatchFields: session_info_update says "Set to null to clear" for
// title and updatedAt, so null differs from an absent member and must survive
// a round trip.
func TestNullForPatchFields(t *testing.T) {
	jsontest.RunDefCases(t, definitions, "SessionUpdate", []jsontest.DefCase{
		{In: `{"sessionUpdate":"session_info_update","_meta":null}`, Want: jsontest.NotZero{}, Valid: true},
		{In: `{"sessionUpdate":"session_info_update","title":null}`, Want: jsontest.NotZero{}, Valid: true},
		{In: `{"sessionUpdate":"session_info_update","updatedAt":null,"title":"t"}`, Want: jsontest.NotZero{}, Valid: true},
	})
}

// TestSessionUpdateLenient: members with x-deserialize-* rules take their
// default, or drop invalid items, instead of failing the update.
func TestSessionUpdateLenient(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		check    func(acpv1.SessionUpdateVariant) bool
	}{
		{"invalid tool content item dropped", `{"sessionUpdate":"tool_call","toolCallId":"c","title":"t","content":[{"type":"diff","path":5,"newText":"x"}]}`,
			func(v acpv1.SessionUpdateVariant) bool { return len(v.(*acpv1.SessionUpdateToolCall).Content) == 0 }},
		{"unknown closed-enum value defaulted", `{"sessionUpdate":"tool_call","toolCallId":"c","title":"t","kind":"_custom"}`,
			func(v acpv1.SessionUpdateVariant) bool { return v.(*acpv1.SessionUpdateToolCall).Kind == nil }},
		{"invalid plan entry dropped", `{"sessionUpdate":"plan","entries":[{"content":"x","priority":"urgent","status":"pending"},{"content":"y","priority":"low","status":"pending"}]}`,
			func(v acpv1.SessionUpdateVariant) bool {
				e := v.(*acpv1.SessionUpdatePlan).Entries
				return len(e) == 1 && e[0].Content == "y"
			}},
		{"unknown audience dropped", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x","annotations":{"audience":["robot","user"]}}}`,
			func(v acpv1.SessionUpdateVariant) bool {
				a := v.(*acpv1.SessionUpdateAgentMessageChunk).Content.Value.(*acpv1.ContentBlockText).Annotations
				return a != nil && len(a.Audience) == 1 && a.Audience[0] == acpv1.RoleUser
			}},
	} {
		var u acpv1.SessionUpdate
		if err := json.Unmarshal([]byte(tc.in), &u); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !tc.check(u.Value) {
			t.Errorf("%s: decoded to %+v", tc.name, u.Value)
		}
	}
}
