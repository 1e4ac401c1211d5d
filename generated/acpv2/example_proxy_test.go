package acpv2_test

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// A proxy that puts a line of context first in every prompt, driven here
// as a conductor drives it: proxy/initialize, then the client's prompt,
// which goes on to the successor in proxy/successor with the text block
// added: the member the edit changed is written anew, after the others,
// which keep the bytes received.
func ExampleProxy() {
	p := &acpv2.Proxy{
		ToAgent: func(ctx context.Context, m *acpv2.ProxyMessage) error {
			if m.Method() != acpv2.MethodPrompt {
				return nil // forwarded as received
			}
			return acpv2.EditParams(m, func(r *acpv2.PromptRequest) error {
				r.Prompt = append([]acpv2.ContentBlock{acpv2.NewContentBlockText("[ctx]")}, r.Prompt...)
				return nil
			})
		},
	}

	// The conductor's end of the proxy's stream.
	toProxy, conductorW := io.Pipe()
	conductorR, fromProxy := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = p.Serve(ctx, fromProxy, toProxy) }()
	out := bufio.NewScanner(conductorR)
	send := func(line string) { _, _ = io.WriteString(conductorW, line+"\n") }

	send(`{"jsonrpc":"2.0","id":1,"method":"proxy/initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"}}}`)
	out.Scan() // the initialize it forwards to its successor
	send(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":2,"info":{"name":"a","version":"1"}}}`)
	out.Scan() // the proxy's initialize result: its successor's
	fmt.Println(out.Text())
	send(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"hi"}],"x":1.50}}`)
	out.Scan()
	fmt.Println(out.Text())
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":2,"info":{"name":"a","version":"1"}}}
	// {"jsonrpc":"2.0","id":2,"method":"proxy/successor","params":{"method":"session/prompt","params":{"sessionId":"s","x":1.50,"prompt":[{"type":"text","text":"[ctx]"},{"type":"text","text":"hi"}]}}}
}
