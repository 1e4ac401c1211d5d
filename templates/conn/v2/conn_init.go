//go:build ignore

package acp

import "sync"

// initGate holds back what reaches an agent before it has answered
// initialize, as ACP v2 agents of the TypeScript SDK do. Until the result of
// an initialize request is on its way, every other request is answered
// -32600 "Invalid request" with data "ACP v2 connection must be initialized
// before '<method>'", whatever its method, and notifications other than
// $/cancel_request are dropped. Once initialized, initialize may be
// repeated until another request comes, and is answered -32600 with data
// "ACP v2 initialize must not be repeated after other requests" after that.
// An initialize answered with an error leaves the connection as it was. The
// connection reads no further line while it serves an initialize, so the
// gate never sees a second one in progress; if it did, that one would be
// answered -32600 with data "ACP v2 initialize is already in progress", as
// the TypeScript SDK answers it.
type initGate struct {
	mu          sync.Mutex
	state       initState
	initialized bool // an initialize has succeeded
	requested   bool // a request other than initialize came after it
}

// initState is where a connection is in its initialization.
type initState int

const (
	initWaiting  initState = iota // no initialize served, or none succeeded
	initServing                   // an initialize is being served
	initFinished                  // an initialize has succeeded, and none is being served
)

// admit says whether the inbound request or notification m may be handled;
// when it may not, rpcErr, if not nil, answers it.
func (g *initGate) admit(m *lineMessage) (ok bool, rpcErr *Error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case m.id == nil:
		return m.method == MethodCancelRequest || g.initialized, nil
	case m.method != MethodInitialize:
		if g.state != initFinished {
			return false, NewInvalidRequestError("ACP v2 connection must be initialized before '" + m.method + "'")
		}
		g.requested = true
		return true, nil
	case g.state == initServing:
		return false, NewInvalidRequestError("ACP v2 initialize is already in progress")
	case g.requested:
		return false, NewInvalidRequestError("ACP v2 initialize must not be repeated after other requests")
	}
	g.state = initServing
	return true, nil
}

// answered records the outcome of an admitted initialize request: ok when
// its result is about to be written, before the peer can see it.
func (g *initGate) answered(ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if ok {
		g.initialized = true
	}
	g.state = initWaiting
	if g.initialized {
		g.state = initFinished
	}
}
