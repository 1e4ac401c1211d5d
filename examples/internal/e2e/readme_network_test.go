package e2e

import (
	"strings"
	"testing"
)

// TestReadmeNetwork checks that the Go blocks of docs/network.md and of
// README's "Over the network" are where their sections say, and that each
// uses what its section is about. TestDocsGoBlocks compiles them; how they
// behave is tested in package acphttp.
func TestReadmeNetwork(t *testing.T) {
	for _, c := range []struct{ path, heading, uses string }{
		{networkPage, "## A server", "acp.Shutdown(ctx)"},
		{networkPage, "## Clients", "acphttp.Dial("},
		{networkPage, "## Reconnecting", "conn.LoadSession("},
		{networkPage, "## Affinity and cookies", "http.SetCookie("},
		{readme, "## Over the network", "acphttp.NewServer("},
	} {
		if code := goBlock(t, c.path, c.heading); !strings.Contains(code, c.uses) {
			t.Errorf("the Go block of %s %q does not call %s", c.path, c.heading, c.uses)
		}
	}
}
