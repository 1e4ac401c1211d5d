package acphttp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
)

// invalidIDs are initialize requests whose id no connection may open with:
// not a string or an integer, longer than MaxIDLength, or not finite.
var invalidIDs = map[string]string{
	"object":   `{}`,
	"array":    `[1]`,
	"boolean":  `true`,
	"fraction": `1.5`,
	"infinite": `1e999`,
	"too long": `"` + strings.Repeat("i", 2<<20) + `"`,
}

// TestInitializeInvalidID: over Streamable HTTP, an initialize with an
// invalid id is answered 400 with -32600 and id null, the id never echoed,
// and opens no connection; over WebSocket the same frame gets the same
// answer and the socket stays open for a valid initialize.
func TestInitializeInvalidID(t *testing.T) {
	s, url := serve(t, nil)
	const want = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request"}}`
	for name, id := range invalidIDs {
		body := `{"jsonrpc":"2.0","id":` + id + `,"method":"initialize","params":{"protocolVersion":1}}`
		status, h, got := do(t, "POST", url, body, "Content-Type", "application/json")
		if status != 400 || got != want || h.Get(acphttp.HeaderConnectionID) != "" {
			t.Errorf("%s: %d %.80q (connection %q), want 400 %s", name, status, got, h.Get(acphttp.HeaderConnectionID), want)
		}
	}
	if n := s.Connections(); n != 0 {
		t.Errorf("%d connections open after the refused initializes", n)
	}
	for _, id := range []string{`"abc"`, `7`, `-3`} {
		body := `{"jsonrpc":"2.0","id":` + id + `,"method":"initialize","params":{"protocolVersion":1}}`
		if status, _, got := do(t, "POST", url, body, "Content-Type", "application/json"); status != 200 {
			t.Errorf("id %s: %d %s, want 200", id, status, got)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws, _ := dialRaw(t, ctx, url)
	for name, id := range invalidIDs {
		if name == "too long" {
			continue // past the WebSocket's message limit
		}
		body := `{"jsonrpc":"2.0","id":` + id + `,"method":"initialize","params":{"protocolVersion":1}}`
		if got := exchange(t, ctx, ws, body); got != want {
			t.Errorf("WebSocket, %s: %s, want %s", name, got, want)
		}
	}
	if got := exchange(t, ctx, ws, initializeBody); !strings.Contains(got, `"result"`) {
		t.Errorf("WebSocket, a valid initialize after the invalid ones: %s", got)
	}
}
