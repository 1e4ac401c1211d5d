package acpv2test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// askingAgent's Initialize asks its peer first, as a proxy asks its
// successor, and builds its answer from the peer's; it hands the params of
// extension notifications to notes.
type askingAgent struct {
	acpv2.Agent
	conn  *acpv2.AgentSideConnection
	notes chan string
}

func (a *askingAgent) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	raw, err := a.conn.ExtMethod(ctx, "_successor/initialize", p)
	if err != nil {
		return nil, err
	}
	r := new(acpv2.InitializeResponse)
	return r, json.Unmarshal(raw, r)
}

func (a *askingAgent) ExtNotification(ctx context.Context, method string, params json.RawMessage) error {
	a.notes <- string(params)
	return nil
}

// TestInitializeWaitsWhileThePeerCalls: an Initialize handler that waits
// for the answer to a call of its own gets it even when the peer sends
// requests and notifications before answering, as a proxy's successor may:
// those wait, in order, for initialize to be answered, and the reader reads
// the answer meanwhile.
func TestInitializeWaitsWhileThePeerCalls(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	defer inW.Close()
	notes := make(chan string, 2)
	conn := acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
		return &askingAgent{conn: c, notes: notes}
	}, outW, inR)
	defer conn.Close()
	lines := make(chan string, 8)
	go func() {
		defer close(lines)
		s := bufio.NewScanner(outR)
		for s.Scan() {
			lines <- s.Text()
		}
	}()
	next := func() string {
		t.Helper()
		select {
		case l := <-lines:
			return l
		case <-ctx.Done():
			t.Fatal("the connection wrote nothing more: a deadlock")
			return ""
		}
	}
	init := `{"protocolVersion":2,"info":{"name":"c","version":"1"}}`
	result := `{"protocolVersion":2,"info":{"name":"a","version":"1"},"authMethods":[]}`
	go func() {
		_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":`+init+"}\n")
	}()
	if got, want := next(), `{"jsonrpc":"2.0","id":1,"method":"_successor/initialize","params":`+init+`}`; got != want {
		t.Fatalf("the connection wrote\n%s\nwant\n%s", got, want)
	}
	sent := make(chan error, 1)
	go func() {
		// Written by a goroutine: a reader that blocks would block the test.
		var err error
		for _, line := range []string{
			`{"jsonrpc":"2.0","method":"_x/note","params":{"n":1}}`,
			`{"jsonrpc":"2.0","id":"a","method":"_x/early"}`,
			`{"jsonrpc":"2.0","method":"_x/note","params":{"n":2}}`,
			`{"jsonrpc":"2.0","id":"b","method":"_x/early"}`,
			`{"jsonrpc":"2.0","id":1,"result":` + result + `}`,
		} {
			if _, err = io.WriteString(inW, line+"\n"); err != nil {
				break
			}
		}
		sent <- err
	}()
	select {
	case err := <-sent:
		if err != nil {
			t.Fatal(err)
		}
	case <-ctx.Done():
		t.Fatal("the connection stopped reading while initialize waited for its call: a deadlock")
	}
	if got, want := next(), `{"jsonrpc":"2.0","id":1,"result":`+result+`}`; got != want {
		t.Fatalf("the connection wrote\n%s\nwant\n%s", got, want)
	}
	// Handled after initialize was answered, in the order received: the
	// requests are answered each from a goroutine of its own.
	answers := []string{next(), next()}
	sort.Strings(answers)
	notFound := func(id string) string {
		return `{"jsonrpc":"2.0","id":"` + id + `","error":{"code":-32601,"message":"Method not found","data":{"method":"_x/early"}}}`
	}
	if got, want := strings.Join(answers, "\n"), notFound("a")+"\n"+notFound("b"); got != want {
		t.Errorf("the held requests were answered\n%s\nwant\n%s", got, want)
	}
	if got := <-notes + " " + <-notes; got != `{"n":1} {"n":2}` {
		t.Errorf("the notifications were handled as %s", got)
	}
}
