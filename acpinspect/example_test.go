package acpinspect_test

import (
	"fmt"
	"strings"

	"github.com/acpgen/acpgen/acpinspect"
)

// Read a wire log into an Inspector and print each message's verdict and
// the rules the traffic broke.
func Example() {
	log := `{"time":"2026-01-02T15:04:05Z","conn":1,"dir":"in","bytes":77,"msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}}
{"time":"2026-01-02T15:04:05.002Z","conn":1,"dir":"out","bytes":52,"msg":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}}
{"time":"2026-01-02T15:04:05.003Z","conn":1,"dir":"out","bytes":36,"msg":{"jsonrpc":"2.0","id":7,"result":{}}}
`
	in := acpinspect.NewInspector()
	if err := acpinspect.ReadWireLog(strings.NewReader(log), in); err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range in.Entries(1, 10) {
		fmt.Println(e.Seq, e.From, e.Kind, e.Method, e.Type, e.Verdict)
	}
	for _, f := range in.Findings() {
		fmt.Printf("message %d: %s %s\n", f.Seq, f.Tier, f.Rule)
	}
	// Output:
	// 1 client request initialize acpv1.InitializeRequest ok
	// 2 agent response initialize acpv1.InitializeResponse ok
	// 3 agent response  json.RawMessage finding
	// message 3: MUST agent.rpc.id-integer
}
