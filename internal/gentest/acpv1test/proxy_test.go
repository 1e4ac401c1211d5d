package acpv1test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// conductorDriver drives a Proxy as a conductor would: raw JSON-RPC lines
// on one stream.
type conductorDriver struct {
	t    *testing.T
	w    *io.PipeWriter
	r    *bufio.Reader
	done chan error
	stop context.CancelFunc
}

func startProxy(t *testing.T, p *acpv1.Proxy) *conductorDriver {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	d := &conductorDriver{t: t, w: inW, r: bufio.NewReaderSize(outR, 1<<16), done: make(chan error, 1), stop: cancel}
	go func() {
		err := p.Serve(ctx, outW, inR)
		outW.Close()
		d.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		select {
		case err := <-d.done:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("the proxy did not end")
		}
		outR.Close()
	})
	return d
}

func (d *conductorDriver) send(line string) {
	d.t.Helper()
	if _, err := io.WriteString(d.w, line+"\n"); err != nil {
		d.t.Fatalf("writing to the proxy: %v", err)
	}
}

func (d *conductorDriver) recv() string {
	d.t.Helper()
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	go func() {
		s, err := d.r.ReadString('\n')
		ch <- res{strings.TrimSuffix(s, "\n"), err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			d.t.Fatalf("reading from the proxy: %v", r.err)
		}
		return r.s
	case <-time.After(10 * time.Second):
		d.t.Fatal("the proxy wrote nothing")
	}
	return ""
}

func (d *conductorDriver) expect(want string) {
	d.t.Helper()
	if got := d.recv(); got != want {
		d.t.Fatalf("the proxy wrote\n%s\nwant\n%s", got, want)
	}
}

// dialect is one conductor's way of starting and wrapping.
type dialect struct {
	name                  string
	init                  string // the method that starts the proxy
	initMeta              string // what the initialize params carry
	request, notification string // the envelopes toward the successor
	resultMeta            string // what the proxy adds to the initialize result
}

var dialects = []dialect{
	{name: "schema", init: "proxy/initialize", request: "proxy/successor", notification: "proxy/successor"},
	{name: "thinkwell", init: "initialize", initMeta: `,"_meta":{"proxy":true}`, request: "_proxy/successor/request",
		notification: "_proxy/successor/notification", resultMeta: `,"_meta":{"proxy":true}`},
}

// The byte checks: what must pass through a proxy as the bytes received.
const (
	oddParams = `{"sessionId":"s\u00e9","n":1.50,"big":9007199254740993,"html":"<a>&amp;</a>","esc":"\u003c\ud83d\ude00","unknown":{"x":[1.0e2,-0.0]},"_meta":{"k":"v"}}`
	oddResult = `{"stopReason":"end_turn","x":1.50,"big":9007199254740993,"html":"<&>","unknown":true}`
	oddError  = `{"code":-32001,"message":"nope <&>","data":{"n":1.50,"s":"\u00e9"}}`
)

// initialize starts the proxy in dialect dl, with id "abc", and checks
// that the successor's result is the proxy's.
func (d *conductorDriver) initialize(dl dialect) {
	d.t.Helper()
	params := `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true}},"n":1.50` + dl.initMeta + `}`
	d.send(`{"jsonrpc":"2.0","id":"abc","method":"` + dl.init + `","params":` + params + `}`)
	d.expect(`{"jsonrpc":"2.0","id":1,"method":"` + dl.request + `","params":{"method":"initialize","params":` + params + `}}`)
	d.send(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{},"x":1.50}}`)
	d.expect(`{"jsonrpc":"2.0","id":"abc","result":{"protocolVersion":1,"agentCapabilities":{},"x":1.50` + dl.resultMeta + `}}`)
}

func TestProxyForwardsBytesInBothDialects(t *testing.T) {
	for _, dl := range dialects {
		t.Run(dl.name, func(t *testing.T) {
			d := startProxy(t, &acpv1.Proxy{})
			d.initialize(dl)
			// A request from the client, with an id that is not an integer.
			for i, id := range []string{`1.50`, `"abc"`, `"x\u00e9"`} {
				d.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"session/prompt","params":` + oddParams + `}`)
				out := fmt.Sprint(i + 2)
				d.expect(`{"jsonrpc":"2.0","id":` + out + `,"method":"` + dl.request + `","params":{"method":"session/prompt","params":` + oddParams + `}}`)
				if i == 1 {
					d.send(`{"jsonrpc":"2.0","id":` + out + `,"error":` + oddError + `}`)
					d.expect(`{"jsonrpc":"2.0","id":` + id + `,"error":` + oddError + `}`)
					continue
				}
				d.send(`{"jsonrpc":"2.0","id":` + out + `,"result":` + oddResult + `}`)
				d.expect(`{"jsonrpc":"2.0","id":` + id + `,"result":` + oddResult + `}`)
			}
			// Params that do not fit their type pass untouched.
			bad := `{"sessionId":7,"mcpServers":"none","cwd":false}`
			d.send(`{"jsonrpc":"2.0","method":"session/cancel","params":` + bad + `}`)
			d.expect(`{"jsonrpc":"2.0","method":"` + dl.notification + `","params":{"method":"session/cancel","params":` + bad + `}}`)
			// A notification and a request from the successor.
			d.send(`{"jsonrpc":"2.0","method":"` + dl.notification + `","params":{"method":"session/update","params":` + oddParams + `}}`)
			d.expect(`{"jsonrpc":"2.0","method":"session/update","params":` + oddParams + `}`)
			d.send(`{"jsonrpc":"2.0","id":"c-9","method":"` + dl.request + `","params":{"method":"session/request_permission","params":` + oddParams + `}}`)
			d.expect(`{"jsonrpc":"2.0","id":5,"method":"session/request_permission","params":` + oddParams + `}`)
			d.send(`{"jsonrpc":"2.0","id":5,"result":` + oddResult + `}`)
			d.expect(`{"jsonrpc":"2.0","id":"c-9","result":` + oddResult + `}`)
			// An extension method and a request without params.
			d.send(`{"jsonrpc":"2.0","id":0,"method":"_x/y"}`)
			d.expect(`{"jsonrpc":"2.0","id":6,"method":"` + dl.request + `","params":{"method":"_x/y"}}`)
			d.send(`{"jsonrpc":"2.0","id":6,"result":null}`)
			d.expect(`{"jsonrpc":"2.0","id":0,"result":null}`)
		})
	}
}

func TestProxyForwardsCancellation(t *testing.T) {
	for _, dl := range dialects {
		t.Run(dl.name, func(t *testing.T) {
			d := startProxy(t, &acpv1.Proxy{})
			d.initialize(dl)
			d.send(`{"jsonrpc":"2.0","id":"p","method":"session/prompt","params":{"sessionId":"s","prompt":[]}}`)
			d.recv()
			d.send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"p"}}`)
			if dl.name == "schema" {
				// The schema's conductor: the proxy/successor request itself.
				d.expect(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":2}}`)
			} else {
				d.expect(`{"jsonrpc":"2.0","method":"_proxy/successor/notification","params":{"method":"$/cancel_request","params":{"requestId":2}}}`)
			}
			// The successor's request, cancelled by the conductor.
			d.send(`{"jsonrpc":"2.0","id":40,"method":"` + dl.request + `","params":{"method":"session/request_permission","params":{}}}`)
			d.expect(`{"jsonrpc":"2.0","id":3,"method":"session/request_permission","params":{}}`)
			d.send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":40}}`)
			d.expect(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":3}}`)
			// session/cancel is a notification like any other.
			d.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`)
			d.expect(`{"jsonrpc":"2.0","method":"` + dl.notification + `","params":{"method":"session/cancel","params":{"sessionId":"s"}}}`)
		})
	}
}

func TestProxyRefusesAPlainInitialize(t *testing.T) {
	d := startProxy(t, &acpv1.Proxy{})
	d.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	got := d.recv()
	if !strings.Contains(got, `"code":-32600`) || !strings.Contains(got, `"id":1,`) {
		t.Fatalf("a plain initialize was answered %s", got)
	}
	d.send(`not json`)
	if got := d.recv(); !strings.Contains(got, `"id":null`) || !strings.Contains(got, `-32700`) {
		t.Fatalf("a line that is not JSON was answered %s", got)
	}
	// An envelope whose method is not a string, in the common layout and
	// not, is refused, not a panic.
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"proxy/successor","params":{"method":1}}`,
		`{"jsonrpc":"2.0", "id":2,"method":"proxy/successor","params":{"params":{},"method":1}}`,
	} {
		d.send(line)
		if got := d.recv(); !strings.Contains(got, `"id":2,`) || !strings.Contains(got, `-32602`) {
			t.Fatalf("%s was answered %s", line, got)
		}
	}
}

// injectPrompt puts a text block first in each session/prompt.
func injectPrompt(text string) func(context.Context, *acpv1.ProxyMessage) error {
	return func(ctx context.Context, m *acpv1.ProxyMessage) error {
		if m.Method() != acpv1.MethodPrompt {
			return nil
		}
		return acpv1.EditParams(m, func(p *acpv1.PromptRequest) error {
			block := acpv1.NewContentBlockText(text)
			p.Prompt = append([]acpv1.ContentBlock{block}, p.Prompt...)
			return nil
		})
	}
}

func TestProxyHookEditsOnlyWhatItChanges(t *testing.T) {
	for _, dl := range dialects {
		t.Run(dl.name, func(t *testing.T) {
			d := startProxy(t, &acpv1.Proxy{ToAgent: injectPrompt("<ctx> & more")})
			d.initialize(dl)
			params := `{"sessionId":"s","prompt":[{"type":"text","text":"hi"}],"zz":1.50,"_meta":{"a":"\u00e9"}}`
			d.send(`{"jsonrpc":"2.0","id":1.50,"method":"session/prompt","params":` + params + `}`)
			edited := `{"sessionId":"s","zz":1.50,"_meta":{"a":"\u00e9"},"prompt":[{"type":"text","text":"<ctx> & more"},{"type":"text","text":"hi"}]}`
			d.expect(`{"jsonrpc":"2.0","id":2,"method":"` + dl.request + `","params":{"method":"session/prompt","params":` + edited + `}}`)
			// Other methods pass as received.
			d.send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":7}}`)
			d.expect(`{"jsonrpc":"2.0","id":3,"method":"` + dl.request + `","params":{"method":"session/new","params":{"cwd":7}}}`)
		})
	}
}

// TestProxyUpdatesStayInOrder sends 5,000 updates and then the prompt's
// answer from the successor through a proxy whose hooks run on both
// directions: the client gets them in order, the answer last.
func TestProxyUpdatesStayInOrder(t *testing.T) {
	const n = 5000
	p := &acpv1.Proxy{
		ToAgent: injectPrompt("[ctx]"),
		ToClient: func(ctx context.Context, m *acpv1.ProxyMessage) error {
			return nil
		},
	}
	d := startProxy(t, p)
	d.initialize(dialects[0])
	d.send(`{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}`)
	d.expect(`{"jsonrpc":"2.0","id":2,"method":"proxy/successor","params":{"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"[ctx]"}]}}}`)
	go func() {
		for i := range n {
			io.WriteString(d.w, `{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"`+fmt.Sprint(i)+`"}}}}}`+"\n")
		}
		io.WriteString(d.w, `{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`+"\n")
	}()
	for i := range n {
		want := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + fmt.Sprint(i) + `"}}}}`
		if got := d.recv(); got != want {
			t.Fatalf("update %d: got %s", i, got)
		}
	}
	d.expect(`{"jsonrpc":"2.0","id":9,"result":{"stopReason":"end_turn"}}`)
}

// TestProxyHookWaitsForItsOwnCall: a hook that calls the successor and
// waits for the answer does not stall the proxy, nor does an Initialized
// hook that does.
func TestProxyHookWaitsForItsOwnCall(t *testing.T) {
	p := &acpv1.Proxy{}
	p.ToAgent = func(ctx context.Context, m *acpv1.ProxyMessage) error {
		if m.Method() != acpv1.MethodNewSession {
			return nil
		}
		raw, err := p.CallAgent(ctx, "_probe/ask", json.RawMessage(`{"q":"<?>"}`))
		if err != nil {
			return err
		}
		return m.Answer(json.RawMessage(`{"sessionId":"from-probe","probe":` + string(raw) + `}`))
	}
	p.Initialized = func(ctx context.Context, result json.RawMessage) (json.RawMessage, error) {
		if _, err := p.CallClient(ctx, "_probe/hello", nil); err != nil {
			return nil, err
		}
		return json.RawMessage(`{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}`), nil
	}
	d := startProxy(t, p)
	d.send(`{"jsonrpc":"2.0","id":1,"method":"proxy/initialize","params":{"protocolVersion":1}}`)
	d.expect(`{"jsonrpc":"2.0","id":1,"method":"proxy/successor","params":{"method":"initialize","params":{"protocolVersion":1}}}`)
	d.send(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}`)
	d.expect(`{"jsonrpc":"2.0","id":2,"method":"_probe/hello"}`)
	d.send(`{"jsonrpc":"2.0","id":2,"result":{}}`)
	d.expect(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}`)

	d.send(`{"jsonrpc":"2.0","id":"n","method":"session/new","params":{"cwd":"/","mcpServers":[]}}`)
	d.expect(`{"jsonrpc":"2.0","id":3,"method":"proxy/successor","params":{"method":"_probe/ask","params":{"q":"<?>"}}}`)
	// While the hook waits, the successor's messages still reach the client.
	d.send(`{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"session/update","params":{"sessionId":"s"}}}`)
	d.expect(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}`)
	d.send(`{"jsonrpc":"2.0","id":3,"result":{"a":1.50}}`)
	d.expect(`{"jsonrpc":"2.0","id":"n","result":{"sessionId":"from-probe","probe":{"a":1.50}}}`)
}

func TestProxyHookErrorAnswersTheRequest(t *testing.T) {
	p := &acpv1.Proxy{ToAgent: func(ctx context.Context, m *acpv1.ProxyMessage) error {
		if m.Method() == acpv1.MethodPrompt {
			return &acpv1.Error{Code: -32602, Message: "no <prompts>"}
		}
		m.Drop()
		return nil
	}}
	d := startProxy(t, p)
	d.initialize(dialects[0])
	d.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`)
	d.send(`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{}}`)
	d.expect(`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"no <prompts>"}}`)
}
