//go:build ignore

package acp

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
)

// How a proxy routes a line from its conductor: a response goes to the
// request it answers, a wrapped message from the successor on to the
// client, anything else from the client on to the successor.

// line routes one line from the conductor.
func (p *Proxy) line(line []byte) {
	if len(line) == 0 || len(line) == 1 && line[0] == '\r' {
		return
	}
	e, err := parseProxyLine(line)
	switch {
	case err == errLineParse:
		p.writeError("", NewParseError())
		return
	case err != nil:
		if !e.hasMethod || e.id == nil {
			p.writeError("", NewInvalidRequestError(map[string]string{"details": err.Error()}))
		} else {
			p.writeError(string(e.id), NewInvalidRequestError(map[string]string{"details": err.Error()}))
		}
		return
	case !e.hasMethod:
		p.response(&e)
		return
	}
	switch e.method {
	case proxySuccessor, proxySuccessorRequest, proxySuccessorNotify:
		p.unwrap(&e)
	case proxyInitialize:
		p.route(ProxyMessage{method: MethodInitialize, id: e.id, params: e.params, toAgent: true, initialize: true})
	case MethodInitialize:
		if string(objectMember(objectMember(e.params, "_meta"), "proxy")) != "true" {
			p.writeError(string(e.id), NewInvalidRequestError(map[string]string{"details": "a proxy is started by a conductor, with proxy/initialize"}))
			return
		}
		p.thinkwell.Store(true)
		p.route(ProxyMessage{method: MethodInitialize, id: e.id, params: e.params, toAgent: true, initialize: true})
	case proxyCancelRequestMethod:
		p.cancel(e.params)
	default:
		p.route(ProxyMessage{method: e.method, id: e.id, params: e.params, toAgent: true})
	}
}

// unwrap routes a message from the successor, which the conductor wraps.
func (p *Proxy) unwrap(e *proxyEnvelope) {
	inner := e.inner
	if !e.unwrapped {
		_ = forMembers(e.params, func(name, v []byte) {
			switch string(name) {
			case "method":
				if v[0] != '"' {
					return // unquote takes a string only
				}
				if s, err := unquote(v); err == nil {
					inner.method, inner.hasMethod = methodName(s), true
				}
			case "params":
				inner.params = v
			}
		})
	}
	if !inner.hasMethod || inner.method == "" {
		if e.id != nil {
			p.writeError(string(e.id), NewInvalidParamsError(map[string]string{"details": "the envelope lacks the method of the message it wraps"}))
		}
		return
	}
	if string(inner.params) == "null" {
		inner.params = nil
	}
	if inner.method == proxyCancelRequestMethod {
		p.cancel(inner.params)
		return
	}
	p.route(ProxyMessage{method: inner.method, id: e.id, params: inner.params})
}

// route hands a request or notification to its direction's hook, or, when
// the direction has none, forwards it now. m comes by value: forwarded,
// it stays on the stack.
func (p *Proxy) route(m ProxyMessage) {
	if q := p.pump(m.toAgent); q != nil {
		h := m
		h.own()
		q.push(proxyItem{msg: &h})
		return
	}
	p.forward(&m)
}

// pump returns the queue of the direction to the agent, or to the client,
// nil when it has no hook.
func (p *Proxy) pump(toAgent bool) *proxyPump {
	if toAgent {
		return p.pumps[0]
	}
	return p.pumps[1]
}

// forward sends m on, with a new id when it is a request; the answer
// goes back to m's sender under m's id.
func (p *Proxy) forward(m *ProxyMessage) {
	if m.id == nil {
		p.writeCall(m.toAgent, 0, m.method, m.params)
		return
	}
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	p.pending[id] = &proxyPending{inID: string(m.id), toAgent: m.toAgent, initialize: m.initialize}
	p.byIn[string(m.id)] = id
	p.mu.Unlock()
	p.writeCall(m.toAgent, id, m.method, m.params)
}

// response hands a response to the request of the proxy's it answers: a
// forwarded request's answer goes back to its sender, through the hook's
// queue of its direction, so that it stays after what came before it.
func (p *Proxy) response(e *proxyEnvelope) {
	id, err := strconv.ParseInt(string(e.id), 10, 64)
	if err != nil {
		return // not an id of the proxy's
	}
	p.mu.Lock()
	pc := p.pending[id]
	delete(p.pending, id)
	if pc != nil && pc.reply == nil && p.byIn[pc.inID] == id {
		delete(p.byIn, pc.inID)
	}
	p.mu.Unlock()
	switch {
	case pc == nil:
	case pc.reply != nil:
		r := proxyReply{result: append(json.RawMessage(nil), e.result...)}
		if e.err != nil {
			rpcErr := new(Error)
			if decodeValid(e.err, rpcErr) != nil {
				rpcErr = NewInternalError(map[string]string{"details": "a malformed error response"})
			}
			r = proxyReply{err: rpcErr}
		}
		pc.reply <- r
	case pc.initialize && e.err == nil:
		result := append([]byte(nil), e.result...)
		p.hooks.Add(1)
		go func() {
			defer p.hooks.Done()
			p.initialized(pc, result)
		}()
	default:
		// The answer travels the other way from the request.
		a := &proxyAnswer{id: pc.inID, result: e.result, err: e.err}
		if q := p.pump(!pc.toAgent); q != nil {
			a.own()
			q.push(proxyItem{answer: a})
			return
		}
		p.writeAnswer(a)
	}
}

// initialized answers the conductor's initialize from the successor's
// result: through the Initialized hook, with the mark of the proxy
// dialect added for a conductor that expects it.
func (p *Proxy) initialized(pc *proxyPending, result []byte) {
	a := &proxyAnswer{id: pc.inID, result: result}
	if p.Initialized != nil {
		r, err := p.Initialized(p.ctx, result)
		if err != nil {
			a.result, a.err = nil, errorJSON(err)
		} else {
			a.result = r
		}
	}
	if a.err == nil && p.thinkwell.Load() {
		meta := setObjectMember(objectMember(a.result, "_meta"), "proxy", json.RawMessage("true"))
		a.result = setObjectMember(a.result, "_meta", meta)
	}
	p.writeAnswer(a)
}

// cancel forwards a $/cancel_request to the side that the cancelled
// request went to, naming it by the id the proxy sent it under: for the
// schema's conductor, a cancel of the proxy/successor request itself; for
// the older one, wrapped as the request was.
func (p *Proxy) cancel(params []byte) {
	in := objectMember(params, "requestId")
	if in == nil {
		return
	}
	p.mu.Lock()
	id, ok := p.byIn[string(in)]
	pc := p.pending[id]
	p.mu.Unlock()
	if !ok || pc == nil {
		return
	}
	cancel := strconv.AppendInt([]byte(`{"requestId":`), id, 10)
	cancel = append(cancel, '}')
	if pc.toAgent && !p.thinkwell.Load() {
		// The schema's conductor: the wrapping request is cancelled.
		p.writeCall(false, 0, proxyCancelRequestMethod, cancel)
		return
	}
	p.writeCall(pc.toAgent, 0, proxyCancelRequestMethod, cancel)
}

// errorJSON is the error object that answers a request with err.
func errorJSON(err error) []byte {
	var rpcErr *Error
	if !errors.As(err, &rpcErr) {
		rpcErr = NewInternalError(map[string]string{"details": err.Error()})
	}
	b, e := encodeObject(rpcErr, nil)
	if e != nil {
		b, _ = encodeObject(&Error{Code: rpcErr.Code, Message: rpcErr.Message}, nil)
	}
	return b
}

// proxyItem is what a direction's queue holds: a message for its hook or
// an answer that keeps its place after the messages before it.
type proxyItem struct {
	msg    *ProxyMessage
	answer *proxyAnswer
}

// proxyAnswer is the answer to a forwarded request, to send back under
// the id it was received with.
type proxyAnswer struct {
	id          string
	result, err []byte
}

// own copies what refers to the line.
func (a *proxyAnswer) own() {
	a.result = append([]byte(nil), a.result...)
	a.err = append([]byte(nil), a.err...)
	if len(a.err) == 0 {
		a.err = nil
	}
}

// handle runs the hook of m's direction, then forwards m or answers it.
func (p *Proxy) handle(ctx context.Context, m *ProxyMessage) {
	hook := p.ToClient
	if m.toAgent {
		hook = p.ToAgent
	}
	m.proxy = p
	err := hook(ctx, m)
	switch {
	case err != nil && m.id != nil:
		p.writeAnswer(&proxyAnswer{id: string(m.id), err: errorJSON(err)})
	case err != nil:
		if p.Logger != nil {
			p.Logger.Warn("acp: proxy: a hook dropped a notification", "method", m.method, "error", err)
		}
	case m.answer != nil:
		p.writeAnswer(m.answer)
	case m.dropped:
	default:
		p.forward(m)
	}
}
