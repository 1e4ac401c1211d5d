package acpv1_test

import (
	"encoding/json"
	"fmt"

	"github.com/acpgen/acpgen/generated/acpv1"
)

func Example() {
	params := []byte(`{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hello"}}}`)

	var n acpv1.SessionNotification
	if err := json.Unmarshal(params, &n); err != nil {
		panic(err)
	}
	switch u := n.Update.Value.(type) {
	case *acpv1.SessionUpdateAgentMessageChunk:
		if t, ok := u.Content.Value.(*acpv1.ContentBlockText); ok {
			fmt.Println("agent says:", t.Text)
		}
	case *acpv1.SessionUpdateToolCall:
		fmt.Println("tool call:", u.Title)
	case *acpv1.SessionUpdateOther:
		fmt.Printf("unknown update %q, kept as %s\n", u.Tag, u.Raw)
	}
	// Output: agent says: Hello
}

func Example_unknownVariant() {
	params := []byte(`{"sessionId":"s1","update":{"sessionUpdate":"_acme/progress","pct":42,"_meta":{"n":9007199254740993}}}`)

	var n acpv1.SessionNotification
	if err := json.Unmarshal(params, &n); err != nil {
		panic(err)
	}
	other := n.Update.Value.(*acpv1.SessionUpdateOther)
	out, _ := json.Marshal(n)
	fmt.Println(other.Tag, other.IsCustom())
	fmt.Println(string(out) == string(params))
	// Output:
	// _acme/progress true
	// true
}
