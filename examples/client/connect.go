package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// connect runs the prompt turn with the agent at url, over Streamable HTTP
// for an http:// or https:// URL and over WebSocket for a ws:// or wss://
// one, and prints its stop reason.
func connect(prompt, url string) error {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	t, err := acphttp.Dial(ctx, url, nil)
	if err != nil {
		return err
	}
	c := newClient()
	conn := acpv1.NewClientSideConnection(c, t, t, connOptions()...)
	var stop acpv1.StopReason
	if _, err = conn.Initialize(ctx, initializeRequest()); err != nil {
		err = fmt.Errorf("initialize: %w", err)
	} else {
		stop, err = session(ctx, c, conn, prompt)
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
