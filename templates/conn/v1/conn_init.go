//go:build ignore

package acp

import "sync"

// initGate holds back the requests that reach an agent before it has
// answered initialize, as ACP v1 agents of the TypeScript SDK do: until the
// result of an initialize request is on its way, every other request is
// answered -32600 "Invalid request: ACP connection must be initialized
// before '<method>'" (without data), whatever its method, and is not
// handled. An initialize request is served at any time, a repeat included;
// one answered with an error leaves the connection as it was.
// Notifications are never held back.
type initGate struct {
	mu          sync.Mutex
	initialized bool
}

// admit says whether the inbound request or notification m may be handled;
// when it may not, rpcErr, if not nil, answers it.
func (g *initGate) admit(m *lineMessage) (ok bool, rpcErr *Error) {
	if m.id == nil || isInitialize(m.method) {
		return true, nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.initialized {
		return true, nil
	}
	return false, NewError(codeInvalidRequest, "Invalid request: ACP connection must be initialized before '"+m.method+"'")
}

// answered records the outcome of an admitted initialize request: ok when
// its result is about to be written, before the peer can see it.
func (g *initGate) answered(ok bool) {
	if ok {
		g.mu.Lock()
		g.initialized = true
		g.mu.Unlock()
	}
}
