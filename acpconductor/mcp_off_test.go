//go:build !(unstable_mcp_over_acp || unstable)

package acpconductor

import (
	"io"
	"strings"
	"testing"
)

// TestMCPServersUnchangedWithoutTheFeature: built without the tag of MCP
// over ACP, the conductor passes an "acp" MCP server to an agent that
// does not advertise them as it came.
func TestMCPServersUnchangedWithoutTheFeature(t *testing.T) {
	if bridgesMCP {
		t.Fatal("the conductor bridges MCP servers without the feature's tag")
	}
	p, _, _ := newRawPeer(t, []string{goProxy(t, ""), helper(t, "agent", "echo")}, &Options{Stderr: io.Discard})
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	p.read()
	params := `{"cwd":"/","mcpServers":[{"type":"acp","name":"greeter","serverId":"greeter-1"}]}`
	p.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":` + params + `}`)
	if got, want := p.read(), `{"jsonrpc":"2.0","id":1,"result":`+params+`}`; got != want {
		t.Errorf("the agent got\n%s\nwant\n%s", got, want)
	}
}

// TestMCPStdioWithoutTheFeature: built without the tag, "acpconductor
// mcp-stdio" says why it cannot run, and exits 2.
func TestMCPStdioWithoutTheFeature(t *testing.T) {
	var stderr strings.Builder
	code := Main(t.Context(), []string{"mcp-stdio", "http://127.0.0.1:1/mcp-x"}, strings.NewReader(""), io.Discard, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "unstable_mcp_over_acp") {
		t.Errorf("exit %d, standard error %q", code, stderr.String())
	}
}
