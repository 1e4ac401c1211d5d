package main

import (
	"context"
	"fmt"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// connect runs the prompt turn with the agent at url, over Streamable HTTP
// for an http:// or https:// URL and over WebSocket for a ws:// or wss://
// one, and prints its stop reason.
func connect(prompt, url string) error {
	ctx := context.Background()
	t, err := acphttp.Dial(ctx, url, nil)
	if err != nil {
		return err
	}
	conn := acpv1.NewClientSideConnection(client{}, t, t, wire.V1())
	var stop acpv1.StopReason
	if _, err = conn.Initialize(ctx, initializeRequest()); err != nil {
		err = fmt.Errorf("initialize: %w", err)
	} else {
		stop, err = session(ctx, conn, prompt)
	}
	if closeErr := t.Close(); err == nil && closeErr != nil {
		err = fmt.Errorf("closing: %w", closeErr)
	}
	if err != nil {
		return err
	}
	fmt.Println("stop:", stop)
	return nil
}
