package acpv2

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestUnknownMembersNested: members the schema allows without naming them
// come back after the named members at every level of a session update
// (the notification, the update, whose tag may come first or not, and its
// content), and a value without them equals one built by hand.
func TestUnknownMembersNested(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","messageId":"m","content":{"type":"text","text":"hi","zC":[1.50]},"zU":{"a":1}},"zN":null}`,
			`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","messageId":"m","content":{"type":"text","text":"hi","zC":[1.50]},"zU":{"a":1}},"zN":null}`},
		{`{"zN":"x","update":{"zU":true,"content":{"text":"hi","zC":2,"type":"text"},"messageId":"m","sessionUpdate":"agent_message_chunk"},"sessionId":"s"}`,
			`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","messageId":"m","content":{"type":"text","text":"hi","zC":2},"zU":true},"zN":"x"}`},
	} {
		var n UpdateSessionNotification
		if err := json.Unmarshal([]byte(c.in), &n); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		out, err := n.MarshalJSON()
		if err != nil || string(out) != c.out {
			t.Errorf("%s:\n got %s, %v\nwant %s", c.in, out, err, c.out)
		}
	}
	var caps SessionDeleteCapabilities
	if err := json.Unmarshal([]byte(`{"zExtra":1}`), &caps); err != nil {
		t.Fatal(err)
	}
	if out, err := json.Marshal(caps); err != nil || string(out) != `{"zExtra":1}` {
		t.Errorf("SessionDeleteCapabilities {\"zExtra\":1} comes back %s, %v", out, err)
	}
	var plain TextContent
	if err := json.Unmarshal([]byte(`{"text":"hi"}`), &plain); err != nil || !reflect.DeepEqual(plain, TextContent{Text: "hi"}) {
		t.Errorf("TextContent without unknown members: %+v, %v", plain, err)
	}
}
