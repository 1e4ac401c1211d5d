//go:build ignore

package acp

import (
	"errors"
	"sync"
)

// A RequestTracker remembers the requests sent and not yet answered, so that
// a response, which carries only the id of its request, decodes into the
// result type of the request's method. It is for programs that move the
// messages themselves: call Track before sending a request and Decode on each
// message received. Ids match by their JSON value: the number 1 and the
// string "1" are different ids. A RequestTracker is safe for concurrent use;
// the zero value is empty and ready. The connections of this package track
// their own calls with one.
type RequestTracker struct {
	mu      sync.Mutex
	pending map[string]trackedRequest // by id, as JSON
}

// trackedRequest is a request awaiting its response: its method.
type trackedRequest struct {
	method string
}

// Track records that a request with this id and method is being sent. An id
// still awaiting its response cannot be tracked again.
func (t *RequestTracker) Track(id RequestID, method string) error {
	key, err := id.appendJSON(nil)
	if err != nil {
		return err
	}
	return t.track(string(key), trackedRequest{method: method})
}

// track records the request r under key, its id as JSON.
func (t *RequestTracker) track(key string, r trackedRequest) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.pending[key]; ok {
		return errors.New("json-rpc: request id " + key + " is already awaiting a response")
	}
	if t.pending == nil {
		t.pending = map[string]trackedRequest{}
	}
	t.pending[key] = r
	return nil
}

// Forget drops the request with this id, for a caller that gives up waiting
// for its response; a response that comes later decodes with a raw result.
// It reports whether the request was tracked.
func (t *RequestTracker) Forget(id RequestID) bool {
	key, err := id.appendJSON(make([]byte, 0, 32))
	if err != nil {
		return false
	}
	_, ok := t.takeKey(key)
	return ok
}

// takeKey returns the request tracked under key, its id as JSON, and stops
// tracking it.
func (t *RequestTracker) takeKey(key []byte) (trackedRequest, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.pending[string(key)]
	delete(t.pending, string(key))
	return r, ok
}

// Len returns the number of requests awaiting a response.
func (t *RequestTracker) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.pending)
}

// Decode decodes one JSON-RPC message as DecodeMessage does. A response to a
// tracked request has its result typed by the request's method, and the
// request is no longer tracked; a response to an id not tracked keeps its
// result as json.RawMessage. Errors are *MessageError: for a response that
// is not valid, or whose result does not fit its type, the error's ID (and
// Method) say which request it answered, and that request is no longer
// tracked either.
func (t *RequestTracker) Decode(data []byte) (*Message, error) {
	return decodeMessage(data, "", t)
}

// method returns the method of the tracked request with this id (nil for
// null), or "".
func (t *RequestTracker) method(id *RequestID) string {
	return t.lookup(id, false)
}

// take returns the method of the tracked request with this id (nil for
// null), or "", and stops tracking it.
func (t *RequestTracker) take(id *RequestID) string {
	return t.lookup(id, true)
}

func (t *RequestTracker) lookup(id *RequestID, drop bool) string {
	var buf [32]byte
	key := append(buf[:0], "null"...)
	if id != nil {
		var err error
		if key, err = id.appendJSON(buf[:0]); err != nil {
			return ""
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.pending[string(key)]
	if drop {
		delete(t.pending, string(key))
	}
	return r.method
}

// callTracker holds the outbound requests of a connection awaiting their
// responses. The connection numbers its requests 1, 2, …: they are tracked
// by that number, and a response matches only an id written exactly as the
// connection wrote it.
type callTracker struct {
	mu      sync.Mutex
	pending map[int64]*pendingCall
}

// pendingCall is an outbound request awaiting its response: the method
// that types its result, and the channel its reply goes to. The entries
// are pooled: the caller gives its entry back once it has received the
// reply, the one send on the channel that taking the entry from the
// tracker allows.
type pendingCall struct {
	method string
	reply  chan reply // capacity 1
}

// reply is the answer to a call of a connection: its result, decoded as
// the line was read, or why there is none.
type reply struct {
	result any
	err    error
}

var pendingCalls = sync.Pool{New: func() any { return &pendingCall{reply: make(chan reply, 1)} }}

// newPendingCall returns an entry for a call of method.
func newPendingCall(method string) *pendingCall {
	p := pendingCalls.Get().(*pendingCall)
	p.method = method
	return p
}

// release gives the entry back, once its reply has been received, or when
// it is certain that none will come.
func (p *pendingCall) release() {
	p.method = ""
	pendingCalls.Put(p)
}

// track records the call with this id.
func (t *callTracker) track(id int64, p *pendingCall) {
	t.mu.Lock()
	if t.pending == nil {
		t.pending = map[int64]*pendingCall{}
	}
	t.pending[id] = p
	t.mu.Unlock()
}

// take returns the call with this id and stops tracking it.
func (t *callTracker) take(id int64) (*pendingCall, bool) {
	t.mu.Lock()
	p, ok := t.pending[id]
	delete(t.pending, id)
	t.mu.Unlock()
	return p, ok
}

// takeKey returns the call whose id, as JSON, is key, and stops tracking
// it.
func (t *callTracker) takeKey(key []byte) (*pendingCall, bool) {
	id, ok := callID(key)
	if !ok {
		return nil, false
	}
	return t.take(id)
}

// methodKey returns the method of the call whose id, as JSON, is key, or "".
func (t *callTracker) methodKey(key []byte) string {
	id, ok := callID(key)
	if !ok {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if p := t.pending[id]; p != nil {
		return p.method
	}
	return ""
}

// takeAll returns every tracked call and stops tracking them.
func (t *callTracker) takeAll() map[int64]*pendingCall {
	t.mu.Lock()
	defer t.mu.Unlock()
	all := t.pending
	t.pending = nil
	return all
}

// callID reads an id written as the connection writes its own: a positive
// integer in decimal, without leading zeros.
func callID(key []byte) (int64, bool) {
	if len(key) == 0 || len(key) > 18 || key[0] == '0' {
		return 0, false
	}
	var n int64
	for _, b := range key {
		if b < '0' || b > '9' {
			return 0, false
		}
		n = n*10 + int64(b-'0')
	}
	return n, true
}
