package converttest

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acprouter"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// TestRouterRequestRightAfterInitialize sends initialize and session/new
// without waiting between them, as TypeScript clients may, to a router of
// the generated connections: each version answers both, initialize first.
func TestRouterRequestRightAfterInitialize(t *testing.T) {
	router, err := acprouter.New(acprouter.NewRoute(1, func(w io.Writer, r io.Reader) *acpv1.AgentSideConnection {
		return acpv1.NewAgentSideConnection(&v1Agent{make(chan *acpv1.InitializeRequest, 1)}, w, r)
	}, convert.InitializeForV1), acprouter.NewRoute(2, func(w io.Writer, r io.Reader) *acpv2.AgentSideConnection {
		return acpv2.NewAgentSideConnection(&v2Agent{}, w, r)
	}, convert.InitializeForV2))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, initialize, newSession, session string }{
		{"v1", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`,
			`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`, `"s1"`},
		{"v2", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"}}}`,
			`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/"}}`, `"s2"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newPipes(t)
			done := make(chan struct{})
			go func() {
				defer close(done)
				if conn, err := router.Serve(p.agentW, p.agentR); err == nil {
					<-conn.Done()
				}
			}()
			if _, err := io.WriteString(p.clientW, c.initialize+"\n"+c.newSession+"\n"); err != nil {
				t.Fatal(err)
			}
			lines := make(chan string)
			go func() {
				defer close(lines)
				sc := bufio.NewScanner(p.clientR)
				for sc.Scan() {
					lines <- sc.Text()
				}
			}()
			for _, want := range []string{`"id":1,"result":{"protocolVersion":` + c.name[1:], `"id":2,"result":{"sessionId":` + c.session} {
				select {
				case got := <-lines:
					if !strings.Contains(got, want) {
						t.Errorf("got %s, want %s", got, want)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("no answer with %s", want)
				}
			}
			p.clientW.Close()
			<-done
			p.agentW.Close()
			for range lines {
			}
		})
	}
}
