// Command proxy is a component of an ACP proxy chain, built on the proxy
// side of the generated packages (acpv1.Proxy): a conductor starts it and
// talks to it on its stdin and stdout, in the schema's dialect
// (proxy/initialize, proxy/successor) or in @thinkwell/conductor's. It
// forwards every message between the client and its successor as the
// bytes received; with -inject TEXT it puts a text block TEXT first in
// every session/prompt, for protocol v1 and v2 alike. Without the flag it
// changes nothing.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/acpgen/acpgen/generated/acpv1"
)

func main() {
	inject := flag.String("inject", "", "put a text block `TEXT` first in every session/prompt")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p := &acpv1.Proxy{}
	if *inject != "" {
		p.ToAgent = injector(*inject)
	}
	if err := p.Serve(ctx, os.Stdout, os.Stdin); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "proxy:", err)
		os.Exit(1)
	}
}

// injector returns the hook that puts a text block first in the prompt
// of each session/prompt. It edits the prompt's JSON itself, without
// decoding it into one version's types: the other members, and the
// blocks of the prompt, keep the bytes the client sent.
func injector(text string) func(context.Context, *acpv1.ProxyMessage) error {
	// Written without escaping HTML: "<ctx>" stays "<ctx>".
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(struct { // strings always encode
		Type string `json:"type"`
		Text string `json:"text"`
	}{"text", text})
	block := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	return func(ctx context.Context, m *acpv1.ProxyMessage) error {
		if m.Method() != acpv1.MethodPrompt {
			return nil
		}
		prompt := m.ParamsMember("prompt")
		var blocks []json.RawMessage
		if err := json.Unmarshal(prompt, &blocks); err != nil {
			return nil // not a prompt this proxy knows: the agent judges it
		}
		m.SetParamsMember("prompt", prepend(block, prompt))
		return nil
	}
}

// prepend returns the JSON array list with item first, keeping the bytes
// of the items it has.
func prepend(item, list json.RawMessage) json.RawMessage {
	rest := list[1:] // after the '['
	for len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r') {
		rest = rest[1:]
	}
	out := append(json.RawMessage{'['}, item...)
	if len(rest) > 0 && rest[0] != ']' {
		out = append(out, ',')
	}
	return append(out, rest...)
}
