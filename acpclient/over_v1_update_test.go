package acpclient

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// TestUpdateToV2: each v1 session update becomes the v2 one of the same
// meaning; chunks without an id get one per run of chunks of a kind; an
// update v2 does not have is kept, JSON and all, as SessionUpdateOther.
func TestUpdateToV2(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}`,
			`{"sessionUpdate":"agent_message_chunk","messageId":"msg_1","content":{"type":"text","text":"a"}}`},
		{`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"b"}}`,
			`{"sessionUpdate":"agent_message_chunk","messageId":"msg_1","content":{"type":"text","text":"b"}}`},
		{`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"c"}}`,
			`{"sessionUpdate":"agent_thought_chunk","messageId":"msg_2","content":{"type":"text","text":"c"}}`},
		{`{"sessionUpdate":"user_message_chunk","messageId":"u1","content":{"type":"text","text":"d"}}`,
			`{"sessionUpdate":"user_message_chunk","messageId":"u1","content":{"type":"text","text":"d"}}`},
		{`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read","kind":"read","status":"pending"}`,
			`{"sessionUpdate":"tool_call_update","toolCallId":"t1","title":"Read","kind":"read","status":"pending"}`},
		{`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}`,
			`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}`},
		{`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"e"}}`,
			`{"sessionUpdate":"agent_message_chunk","messageId":"msg_3","content":{"type":"text","text":"e"}}`},
		{`{"sessionUpdate":"plan","entries":[{"content":"A","priority":"high","status":"pending"}]}`,
			`{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"main","entries":[{"content":"A","priority":"high","status":"pending"}]}}`},
		{`{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"web","description":"Search"}]}`,
			`{"sessionUpdate":"available_commands_update","availableCommands":[{"type":"command","name":"web","description":"Search"}]}`},
		{`{"sessionUpdate":"session_info_update","title":"T"}`,
			`{"sessionUpdate":"session_info_update","title":"T"}`},
		{`{"sessionUpdate":"usage_update","used":1,"size":2}`,
			`{"sessionUpdate":"usage_update","used":1,"size":2}`},
		{`{"sessionUpdate":"config_option_update","configOptions":[{"type":"select","id":"m","name":"Model","currentValue":"a","options":[{"value":"a","name":"A"}]}]}`,
			`{"sessionUpdate":"config_option_update","configOptions":[{"type":"select","currentValue":"a","options":[{"value":"a","name":"A"}],"configId":"m","name":"Model"}]}`},
		{`{"sessionUpdate":"current_mode_update","currentModeId":"ask"}`,
			`{"sessionUpdate":"current_mode_update","currentModeId":"ask"}`},
		{`{"sessionUpdate":"_vendor_thing","x":[1,2]}`,
			`{"sessionUpdate":"_vendor_thing","x":[1,2]}`},
	}
	o := NewOverV1(nil)
	for _, c := range cases {
		var u acpv1.SessionUpdate
		if err := u.UnmarshalJSON([]byte(c.in)); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		out, err := updateToV2(o.withMessageID("s", u))
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		b, err := out.MarshalJSON()
		if err != nil || string(b) != c.want {
			t.Errorf("%s:\n got  %s, %v\n want %s", c.in, b, err, c.want)
		}
	}
	var u acpv1.SessionUpdate
	if err := u.UnmarshalJSON([]byte(`{"sessionUpdate":"current_mode_update","currentModeId":"ask"}`)); err != nil {
		t.Fatal(err)
	}
	if out, _ := updateToV2(u); out == nil {
		t.Fatal("no update")
	} else if _, ok := out.Value.(*acpv2.SessionUpdateOther); !ok {
		t.Errorf("current_mode_update became %T, want the raw SessionUpdateOther", out.Value)
	}
}
