//go:build ignore

package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// A ProxyMessage is a request or notification passing through a Proxy,
// as its hook sees it: its params are the bytes received, and stay so
// unless the hook sets them (SetParams, EditParams).
type ProxyMessage struct {
	method     string
	id         []byte // as received; nil for a notification
	params     []byte
	toAgent    bool
	initialize bool
	dropped    bool
	answer     *proxyAnswer
	proxy      *Proxy
}

// Method is the message's method, such as "session/prompt".
func (m *ProxyMessage) Method() string { return m.method }

// ID is a request's id as received (1, "abc"), nil for a notification.
func (m *ProxyMessage) ID() json.RawMessage { return m.id }

// ToAgent reports whether the message goes from the client to the agent.
func (m *ProxyMessage) ToAgent() bool { return m.toAgent }

// Proxy is the proxy the message passes through: its hook calls either
// side through it.
func (m *ProxyMessage) Proxy() *Proxy { return m.proxy }

// Params are the message's params as received (nil when it has none),
// or as a hook set them. They must not be changed in place.
func (m *ProxyMessage) Params() json.RawMessage { return m.params }

// SetParams sets the params the message goes on with: raw JSON, an
// object or an array, or nil for none.
func (m *ProxyMessage) SetParams(raw json.RawMessage) { m.params = raw }

// ParamsMember returns the value of the member name of the params, as
// received, or nil when there is none.
func (m *ProxyMessage) ParamsMember(name string) json.RawMessage {
	return objectMember(m.params, name)
}

// SetParamsMember sets the member name of the params to value, raw JSON,
// or removes it when value is nil; the other members keep their bytes.
func (m *ProxyMessage) SetParamsMember(name string, value json.RawMessage) {
	m.params = setObjectMember(m.params, name, value)
}

// Answer answers a request with result (written as JSON, a
// json.RawMessage as it is) instead of forwarding it.
func (m *ProxyMessage) Answer(result any) error {
	if m.id == nil {
		return errors.New("acp: a notification has no answer")
	}
	raw, err := paramsJSON(result)
	if err != nil {
		return err
	}
	if raw == nil {
		raw = []byte("null")
	}
	m.answer = &proxyAnswer{id: string(m.id), result: raw}
	return nil
}

// Drop keeps a notification from going on; a request is answered by
// Answer, or by the hook's error.
func (m *ProxyMessage) Drop() { m.dropped = m.id == nil }

// own copies what refers to the line read.
func (m *ProxyMessage) own() {
	m.id = append([]byte(nil), m.id...)
	if len(m.id) == 0 {
		m.id = nil
	}
	if m.params != nil {
		m.params = append([]byte(nil), m.params...)
	}
}

// EditParams decodes the params of m into P, a pointer to the method's
// params type (*PromptRequest), calls edit with them, and sets the params
// m goes on with: the members edit changed are written anew (without
// escaping HTML), every other member keeps the bytes received, the members
// the type does not know included. When edit changes nothing, the params
// stay as they were. It fails, calling nothing, when the params do not fit
// P.
func EditParams[P any](m *ProxyMessage, edit func(P) error) error {
	var none P
	v, err := newValue(none, json.RawMessage(m.params))
	if err != nil {
		return fmt.Errorf("acp: the params of %s: %w", m.method, err)
	}
	before, err := appendNoEscape(nil, v)
	if err != nil {
		return err
	}
	if err := edit(v.(P)); err != nil {
		return err
	}
	after, err := appendNoEscape(nil, v)
	if err != nil {
		return err
	}
	if !bytes.Equal(before, after) {
		m.params = mergeMembers(m.params, before, after)
	}
	return nil
}

// mergeMembers returns the object orig with the members whose encoding
// differs between before and after set to after's, and those after lacks
// removed.
func mergeMembers(orig, before, after []byte) []byte {
	old := map[string][]byte{}
	_ = forMembers(before, func(name, v []byte) { old[string(name)] = v })
	out := json.RawMessage(orig)
	if len(out) == 0 || out[0] != '{' {
		out = json.RawMessage("{}")
	}
	seen := map[string]bool{}
	_ = forMembers(after, func(name, v []byte) {
		seen[string(name)] = true
		if prev, ok := old[string(name)]; !ok || !bytes.Equal(prev, v) {
			out = setObjectMember(out, string(name), append(json.RawMessage(nil), v...))
		}
	})
	for name := range old {
		if !seen[name] {
			out = setObjectMember(out, name, nil)
		}
	}
	return out
}

// proxyPump runs the hook of one direction over its messages, one at a
// time and in order. The queue has no bound: the reader never waits for a
// hook, so that a hook may wait for an answer the reader brings.
type proxyPump struct {
	mu     sync.Mutex
	items  []proxyItem
	signal chan struct{}
	closed bool
}

func newProxyPump() *proxyPump { return &proxyPump{signal: make(chan struct{}, 1)} }

func (q *proxyPump) push(it proxyItem) {
	q.mu.Lock()
	q.items = append(q.items, it)
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
}

func (q *proxyPump) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
}

// run handles the items pushed until the queue is closed and empty, or
// ctx ends.
func (q *proxyPump) run(ctx context.Context, p *Proxy) {
	var batch []proxyItem
	for {
		q.mu.Lock()
		batch, q.items = q.items, batch[:0]
		closed := q.closed
		q.mu.Unlock()
		for i, it := range batch {
			if ctx.Err() != nil {
				return
			}
			if it.msg != nil {
				p.handle(ctx, it.msg)
			} else {
				p.writeAnswer(it.answer)
			}
			batch[i] = proxyItem{}
		}
		if len(batch) == 0 && closed {
			return
		}
		if len(batch) == 0 {
			select {
			case <-q.signal:
			case <-ctx.Done():
				return
			}
		}
	}
}
