package acpv1test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/jsontest"
)

// TestUnknownMembersNested: members the schema allows without naming them
// come back after the named members at every level of a session update
// (the notification, the update, whose tag may come first or not, and its
// content), and a value without them equals one built by hand.
func TestUnknownMembersNested(t *testing.T) {
	jsontest.AssertRoundTrips[acpv1.SessionNotification](t,
		jsontest.RoundTrip{In: `{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi","zC":[1.50]},"zU":{"a":1}},"zN":null}`,
			Out: `{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi","zC":[1.50]},"zU":{"a":1}},"zN":null}`},
		jsontest.RoundTrip{In: `{"zN":"x","update":{"zU":true,"content":{"text":"hi","zC":2,"type":"text"},"sessionUpdate":"agent_message_chunk"},"sessionId":"s"}`,
			Out: `{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi","zC":2},"zU":true},"zN":"x"}`},
	)
	jsontest.AssertRoundTrips[acpv1.SessionDeleteCapabilities](t, jsontest.RoundTrip{In: `{"zExtra":1}`, Out: `{"zExtra":1}`})
	var plain acpv1.TextContent
	if err := json.Unmarshal([]byte(`{"text":"hi"}`), &plain); err != nil || !reflect.DeepEqual(plain, acpv1.TextContent{Text: "hi"}) {
		t.Errorf("TextContent without unknown members: %+v, %v", plain, err)
	}
}
