package acpv1_test

import (
	"fmt"

	"github.com/acpgen/acpgen/generated/acpv1"
)

func ExampleRequestTracker() {
	var tracker acpv1.RequestTracker
	id := acpv1.RequestID{Value: acpv1.RequestIDNumber(1)}
	if err := tracker.Track(id, acpv1.MethodNewSession); err != nil {
		panic(err)
	}
	request, err := acpv1.Message{ID: &id, Method: acpv1.MethodNewSession,
		Params: acpv1.NewNewSessionRequest("/home/user/project", []acpv1.MCPServer{})}.MarshalJSON()
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s\n", request)

	// The response carries only the id: the tracker knows its method.
	msg, err := tracker.Decode([]byte(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess_1"}}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(msg.Result.(*acpv1.NewSessionResponse).SessionID, tracker.Len())
	// Output:
	// {"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/home/user/project","mcpServers":[]}}
	// sess_1 0
}
