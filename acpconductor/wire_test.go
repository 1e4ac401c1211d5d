package acpconductor

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rawPeer is a client on raw JSON-RPC lines.
type rawPeer struct {
	t  *testing.T
	w  io.Writer
	br *bufio.Reader
}

func newRawPeer(t *testing.T, components []string, opts *Options) (*rawPeer, <-chan struct{}, *error) {
	w, r, done, err := runChain(t, components, opts)
	return &rawPeer{t: t, w: w, br: bufio.NewReaderSize(r, 1<<20)}, done, err
}

func (p *rawPeer) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.w, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

func (p *rawPeer) read() string {
	p.t.Helper()
	line, err := p.br.ReadString('\n')
	if err != nil {
		p.t.Fatalf("reading the chain: %v (read %q)", err, line)
	}
	return strings.TrimSuffix(line, "\n")
}

// byteCases are messages whose bytes must reach the agent, and whose
// answers must reach the client, unchanged but for the ids.
var byteCases = []struct{ name, id, params string }{
	{"string id", `"abc"`, `{"a":1}`},
	{"fraction id", `1.50`, `{"n":1.50,"big":9007199254740993}`},
	{"escapes", `7`, `{"s":"\u003c\u00e9\ud83d\ude00","html":"<&>","unknown":{"x":[1,2,{}]}}`},
	{"spaces", `"x y"`, `{ "k" : [ 1 , 2 ] , "_meta" : { "m" : true } }`},
}

// TestBytesThroughHops: through no proxy and a Go proxy, requests reach
// the agent with their params' bytes, and their answers come back with
// the ids the client gave, "abc" and 1.50 among them, and the rest of
// their bytes.
func TestBytesThroughHops(t *testing.T) {
	for _, proxies := range [][]string{nil, {goProxy(t, "")}, {goProxy(t, ""), goProxy(t, "")}} {
		t.Run(fmt.Sprintf("%d proxies", len(proxies)), func(t *testing.T) {
			var stderr strings.Builder
			lw := &lockedWriter{w: &stderr}
			p, _, _ := newRawPeer(t, append(proxies, helper(t, "agent", "echo")), &Options{Stderr: lw})
			p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
			if got := p.read(); got != `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}` {
				t.Fatalf("initialize: %s", got)
			}
			for _, c := range byteCases {
				p.send(`{"jsonrpc":"2.0","id":` + c.id + `,"method":"x/echo","params":` + c.params + `}`)
				want := `{"jsonrpc":"2.0","id":` + c.id + `,"result":` + c.params + `}`
				if got := p.read(); got != want {
					t.Errorf("%s: the client got\n%s\nwant\n%s", c.name, got, want)
				}
			}
			p.send(`{"jsonrpc":"2.0","method":"x/note","params":{"n":1.50}}`)
			p.send(`{"jsonrpc":"2.0","id":99,"method":"x/echo"}`)
			if got := p.read(); got != `{"jsonrpc":"2.0","id":99,"result":null}` {
				t.Errorf("a request without params: %s", got)
			}
			// The agent's standard error arrives on its own time.
			log := func() string {
				lw.mu.Lock()
				defer lw.mu.Unlock()
				return stderr.String()
			}
			for end := time.Now().Add(10 * time.Second); time.Now().Before(end) && !strings.Contains(log(), `"id":99`); {
				time.Sleep(10 * time.Millisecond)
			}
			for _, c := range byteCases {
				if !strings.Contains(log(), `"method":"x/echo","params":`+c.params+`}`) {
					t.Errorf("%s: the agent did not get the params' bytes; it got:\n%s", c.name, log())
				}
			}
			if !strings.Contains(log(), `{"jsonrpc":"2.0","method":"x/note","params":{"n":1.50}}`) {
				t.Errorf("the notification's bytes changed; the agent got:\n%s", log())
			}
			if !strings.Contains(log(), `got {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`) {
				t.Errorf("the agent did not get initialize:\n%s", log())
			}
		})
	}
}

// TestCancelFollowsTheRequest: a $/cancel_request of the client reaches
// the agent with the agent's id of the request, through a proxy that
// cancels its proxy/successor request, and the request's answer comes
// back with the client's id.
func TestCancelFollowsTheRequest(t *testing.T) {
	for _, proxies := range [][]string{nil, {goProxy(t, "")}} {
		t.Run(fmt.Sprintf("%d proxies", len(proxies)), func(t *testing.T) {
			p, _, _ := newRawPeer(t, append(proxies, helper(t, "agent", "echo")), &Options{Stderr: io.Discard})
			p.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":1}}`)
			p.read()
			p.send(`{"jsonrpc":"2.0","id":"abc","method":"hang","params":{}}`)
			p.send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"abc"}}`)
			want := `{"jsonrpc":"2.0","id":"abc","error":{"code":-32800,"message":"cancelled"}}`
			if got := p.read(); got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

// TestUpdatesInOrder: 5,000 updates through a hop arrive in order, all
// before the answer of the request that sent them.
func TestUpdatesInOrder(t *testing.T) {
	const n = 5000
	for _, proxies := range [][]string{{goProxy(t, "")}, {goProxy(t, ""), nodeProxy(t, "")}} {
		t.Run(fmt.Sprintf("%d proxies", len(proxies)), func(t *testing.T) {
			p, _, _ := newRawPeer(t, append(proxies, helper(t, "agent", "echo")), &Options{Stderr: io.Discard})
			p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
			p.read()
			p.send(`{"jsonrpc":"2.0","id":2,"method":"flood","params":{"n":` + strconv.Itoa(n) + `}}`)
			for i := range n {
				want := `"text":"` + strconv.Itoa(i) + `"}}}}`
				if got := p.read(); !strings.HasSuffix(got, want) || !strings.Contains(got, `"method":"session/update"`) {
					t.Fatalf("update %d: got %s", i, got)
				}
			}
			if got := p.read(); got != `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}` {
				t.Fatalf("the answer: %s", got)
			}
		})
	}
}

// TestComponentDeath: a component that exits ends the chain with an error
// naming it and its exit status, and the client's request in the chain
// is answered with an error.
func TestComponentDeath(t *testing.T) {
	p, done, runErr := newRawPeer(t, []string{goProxy(t, ""), helper(t, "agent", "die")}, &Options{Stderr: io.Discard})
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	p.read()
	p.send(`{"jsonrpc":"2.0","id":"q","method":"x/echo","params":{}}`)
	got := p.read()
	if !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":"q","error":{"code":-32603,"message":"the chain ended: agent (`) ||
		!strings.Contains(got, "exit status 3") {
		t.Errorf("the client got %s", got)
	}
	select {
	case <-done:
		err := *runErr
		var ce *ComponentError
		if !errors.As(err, &ce) || !strings.HasPrefix(ce.Name, "agent (") || ce.State == nil || ce.State.ExitCode() != 3 {
			t.Errorf("Run returned %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the chain did not end")
	}
}

// TestNoComponentLeft: once the client ends, no process of the chain runs,
// nested chains' included.
func TestNoComponentLeft(t *testing.T) {
	marker := fmt.Sprintf("[left-%d]", os.Getpid())
	c := chainCases[len(chainCases)-1]
	components := append([]string{goProxy(t, marker), nested(t, goProxy(t, marker), nodeProxy(t, marker))}, quote(bin(t, "agent")))
	w, r, done, runErr := runChain(t, components, nil)
	p := &rawPeer{t: t, w: w, br: bufio.NewReader(r)}
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	p.read()
	running := processesWith(t, marker)
	if len(running) != 4 {
		t.Fatalf("%d processes of the chain run, want 4 proxies: %v (case %s)", len(running), running, c.name)
	}
	if agents := processesWith(t, bin(t, "agent")); len(agents) != 1 {
		t.Fatalf("%d agents run, want 1", len(agents))
	}
	w.Close()
	<-done
	if err := *runErr; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if left := append(processesWith(t, marker), processesWith(t, bin(t, "agent"))...); len(left) > 0 {
		t.Errorf("processes left: %v", left)
	}
}

// processesWith returns the pids of the running processes whose command
// line has s.
func processesWith(t *testing.T, s string) []string {
	dirs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil || len(dirs) == 0 {
		t.Skip("no /proc")
	}
	var pids []string
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil || !strings.Contains(string(b), s) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join(filepath.Dir(d), "stat"))
		if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
			continue // a zombie is not running
		}
		pids = append(pids, filepath.Base(filepath.Dir(d)))
	}
	return pids
}

// TestBadClientLines: a line that is not JSON, or not a JSON-RPC message,
// is answered with the error JSON-RPC gives it, and the chain goes on.
func TestBadClientLines(t *testing.T) {
	p, _, _ := newRawPeer(t, []string{helper(t, "agent", "echo")}, &Options{Stderr: io.Discard})
	for _, c := range []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":1,`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"not a JSON-RPC message: `},
		{`[{"jsonrpc":"2.0","id":1,"method":"x"}]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"not a JSON-RPC message: a JSON-RPC message is an object, not an array (a batch, which ACP does not use)"}}`},
		{`{"jsonrpc":"2.0","id":1}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"not a JSON-RPC message: a JSON-RPC message has a method, or an id and a result or error"}}`},
		{`{"jsonrpc":"2.0","id":"ok","method":"x/echo","params":[]}`, `{"jsonrpc":"2.0","id":"ok","result":[]}`},
	} {
		p.send(c.line)
		if got := p.read(); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got %s, want %s", c.line, got, c.want)
		}
	}
}
