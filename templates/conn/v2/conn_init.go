//go:build ignore

package acp

import (
	"math"
	"strconv"
	"sync"
)

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
// the TypeScript SDK answers it. An initialize that asks for version 0 or
// 1 is answered -32022 (see unsupportedVersion) and changes nothing.
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
	case !isInitialize(m.method):
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
	if e := unsupportedVersion(m.params.raw); e != nil {
		return false, e
	}
	g.state = initServing
	return true, nil
}

// unsupportedVersion returns the answer to an initialize whose params ask
// for a protocol version below 2, which this package does not speak: the
// version negotiation as the TypeScript SDK's v2 agents answer it, -32022
// "Unsupported protocol version" with the version requested and [2]
// supported, rather than the error of decoding v1 params as v2's. It
// returns nil for any other params, which initialize decodes and judges.
// An agent that serves v1 clients as well puts acprouter or the convert
// package's bridge in front of this connection.
func unsupportedVersion(params []byte) *Error {
	raw, ok := objectMembers(params)["protocolVersion"]
	if !ok {
		return nil
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f != math.Trunc(f) || f < 0 || f >= 2 {
		return nil
	}
	// The code and data by value: older schema revisions name neither.
	const unsupportedProtocolVersion = -32022
	return withData(NewError(unsupportedProtocolVersion, "Unsupported protocol version"),
		map[string]any{"requested": int64(f), "supported": []int{2}})
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
