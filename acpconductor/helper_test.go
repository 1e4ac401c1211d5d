package acpconductor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
)

// helperArg, first on a test binary's command line, makes it play a
// component instead of running the tests: "proxy TEXT" (rawProxy), "agent
// MODE" (rawAgent) or "conductor ARGS…" (Main).
const helperArg = "acpconductor-helper"

// moreHelpers are the components that tests behind build tags add.
var moreHelpers = map[string]func(args []string){}

func helperMain() bool {
	if len(os.Args) < 3 || os.Args[1] != helperArg {
		return false
	}
	switch os.Args[2] {
	case "proxy":
		rawProxy(strings.Join(os.Args[3:], " "), nil)
	case "agent":
		rawAgent(os.Args[3])
	case "conductor":
		os.Exit(Main(context.Background(), os.Args[3:], os.Stdin, os.Stdout, os.Stderr))
	default:
		if play := moreHelpers[os.Args[2]]; play != nil {
			play(os.Args[3:])
		}
	}
	return true
}

// wire is a helper's JSON-RPC on stdin and stdout, written as raw text
// with one lock.
type wire struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func (w *wire) send(parts ...string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range parts {
		w.w.WriteString(p)
	}
	w.w.WriteByte('\n')
	w.w.Flush()
}

// rawMsg is a message with its members kept raw.
type rawMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func readLines(fn func(m rawMsg, line []byte)) {
	br := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var m rawMsg
			if json.Unmarshal(line, &m) != nil {
				fmt.Fprintf(os.Stderr, "helper: bad line %q\n", line)
				os.Exit(3)
			}
			fn(m, bytes.TrimSpace(line))
		}
		if err != nil {
			return
		}
	}
}

// proxyHooks change what rawProxy does: edit changes the params of what
// goes to the successor, serve answers a request of the successor (and
// reports whether it did) instead of forwarding it.
type proxyHooks struct {
	edit  func(method string, params json.RawMessage) json.RawMessage
	serve func(w *wire, id json.RawMessage, method string, params json.RawMessage) bool
}

// rawProxy is a proxy on raw JSON-RPC, in the schema's dialect: it
// forwards everything, with ids of its own on each side, and with a
// non-empty inject puts a text block inject first in every session/prompt.
func rawProxy(inject string, h *proxyHooks) {
	if h == nil {
		h = &proxyHooks{}
	}
	w := &wire{w: bufio.NewWriter(os.Stdout)}
	type back struct {
		id      string // the id to answer with
		upward  bool   // the request came from the predecessor
		initial bool   // a proxy/initialize
	}
	var (
		next    int
		pending = map[string]back{} // by the id the proxy sent
		sentUp  = map[string]string{}
	)
	send := func(id json.RawMessage, wrapped bool, method string, params json.RawMessage, b back) {
		var idPart string
		if id != nil {
			next++
			n := strconv.Itoa(next)
			pending[n] = b
			sentUp[string(id)] = n
			idPart = `,"id":` + n
		}
		m, _ := json.Marshal(method)
		var inner string
		if params != nil {
			inner = `,"params":` + string(params)
		}
		if wrapped {
			w.send(`{"jsonrpc":"2.0"`, idPart, `,"method":"proxy/successor","params":{"method":`, string(m), inner, `}}`)
			return
		}
		w.send(`{"jsonrpc":"2.0"`, idPart, `,"method":`, string(m), inner, `}`)
	}
	readLines(func(m rawMsg, line []byte) {
		switch {
		case m.Method == "":
			b, ok := pending[string(m.ID)]
			if !ok {
				fmt.Fprintf(os.Stderr, "proxy: unknown answer %s\n", line)
				return
			}
			delete(pending, string(m.ID))
			if m.Error != nil {
				w.send(`{"jsonrpc":"2.0","id":`, b.id, `,"error":`, string(m.Error), `}`)
			} else {
				w.send(`{"jsonrpc":"2.0","id":`, b.id, `,"result":`, string(m.Result), `}`)
			}
		case m.Method == "$/cancel_request":
			var p struct{ RequestID json.RawMessage }
			json.Unmarshal(m.Params, &p)
			if n, ok := sentUp[string(p.RequestID)]; ok {
				w.send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":`, n, `}}`)
			}
		case m.Method == "proxy/successor": // from the successor: to the predecessor
			var inner struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			}
			json.Unmarshal(m.Params, &inner)
			if m.ID != nil && h.serve != nil && h.serve(w, m.ID, inner.Method, inner.Params) {
				return
			}
			send(m.ID, false, inner.Method, inner.Params, back{id: string(m.ID)})
		case m.Method == "initialize":
			w.send(`{"jsonrpc":"2.0","id":`, string(m.ID), `,"error":{"code":-32600,"message":"a proxy is initialized with proxy/initialize"}}`)
		default: // from the predecessor: to the successor
			method, params := m.Method, m.Params
			if method == "proxy/initialize" {
				method = "initialize"
			}
			if method == "session/prompt" && inject != "" {
				params = injectText(params, inject)
			}
			if h.edit != nil {
				params = h.edit(method, params)
			}
			send(m.ID, true, method, params, back{id: string(m.ID), upward: true})
		}
	})
}

// injectText puts a text block first in a session/prompt's params.
func injectText(params json.RawMessage, text string) json.RawMessage {
	var p map[string]json.RawMessage
	json.Unmarshal(params, &p)
	var blocks []json.RawMessage
	json.Unmarshal(p["prompt"], &blocks)
	t, _ := json.Marshal(map[string]string{"type": "text", "text": text})
	p["prompt"], _ = json.Marshal(append([]json.RawMessage{t}, blocks...))
	out, _ := json.Marshal(p)
	return out
}

// rawAgent is an agent on raw JSON-RPC that writes what it reads to
// stderr as "got LINE": "echo" answers a request with its params as the
// result, sends "flood" N session/update notifications before its answer
// to a request of that method (params {"n":N}), and leaves a request of
// method "hang" unanswered until a $/cancel_request names it; "die" exits
// with status 3 at its first request after initialize.
func rawAgent(mode string) {
	w := &wire{w: bufio.NewWriter(os.Stdout)}
	hanging := map[string]bool{}
	readLines(func(m rawMsg, line []byte) {
		fmt.Fprintf(os.Stderr, "got %s\n", line)
		switch {
		case m.Method == "initialize":
			w.send(`{"jsonrpc":"2.0","id":`, string(m.ID), `,"result":{"protocolVersion":1}}`)
		case mode == "die" && m.ID != nil:
			os.Exit(3)
		case m.Method == "$/cancel_request":
			var p struct{ RequestID json.RawMessage }
			json.Unmarshal(m.Params, &p)
			if hanging[string(p.RequestID)] {
				delete(hanging, string(p.RequestID))
				w.send(`{"jsonrpc":"2.0","id":`, string(p.RequestID), `,"error":{"code":-32800,"message":"cancelled"}}`)
			}
		case m.Method == "hang":
			hanging[string(m.ID)] = true
		case m.Method == "flood":
			var p struct{ N int }
			json.Unmarshal(m.Params, &p)
			for i := range p.N {
				w.send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"`, strconv.Itoa(i), `"}}}}`)
			}
			w.send(`{"jsonrpc":"2.0","id":`, string(m.ID), `,"result":{"stopReason":"end_turn"}}`)
		case m.ID != nil:
			w.send(`{"jsonrpc":"2.0","id":`, string(m.ID), `,"result":`, string(orNull(m.Params)), `}`)
		}
	})
}

func orNull(b json.RawMessage) json.RawMessage {
	if b == nil {
		return json.RawMessage("null")
	}
	return b
}

// lockedWriter is a writer safe for concurrent use.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
