package acphttp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// errReconnected is what a stream or a POST of a lost connection ends
// with once a reconnection has taken the connection back on a new one.
var errReconnected = errors.New("acphttp: the connection was taken back on a new one")

// minPostWait is the least a POST waits for its answer before it is sent
// again: a server under load takes its time.
const minPostWait = 500 * time.Millisecond

// rebuildWait bounds how long a reconnection waits for the answer to each
// session/resume or session/load it sends.
const rebuildWait = 30 * time.Second

// streamState is what a client keeps of one SSE stream across its
// resumes: the cursors it got, and when it last heard from the server.
type streamState struct {
	dedup
	act    activity
	opened bool // the last GET was answered 2xx
	silent atomic.Bool
}

// touchReader notes each read of a stream's body that brings bytes.
type touchReader struct {
	r   io.Reader
	act *activity
}

func (t *touchReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		t.act.touch()
	}
	return n, err
}

// waitGate waits while a reconnection is under way.
func (h *httpClient) waitGate() {
	h.mu.Lock()
	g := h.gate
	h.mu.Unlock()
	if g != nil {
		select {
		case <-g:
		case <-h.ctx.Done():
		}
	}
}

// connectionIs reports whether the transport still speaks to the
// connection id.
func (h *httpClient) connectionIs(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.id == id
}

// got settles the agent's message m, whose text is data, with the book:
// it reports false for an answer to a request of the transport's own,
// which it hands to the request's waiter.
func (h *httpClient) got(m *message, data []byte) bool {
	if h.book.got(m) {
		return true
	}
	h.mu.Lock()
	ch := h.waiters[m.idKey()]
	delete(h.waiters, m.idKey())
	h.mu.Unlock()
	if ch != nil {
		ch <- topMember(data, "error") == nil
	}
	return false
}

// post POSTs msg to the connection id; with Reconnect, a POST that fails
// before an answer is sent again with backoff (the server takes a request
// or response once), and a 404, the server not knowing the connection,
// starts taking the connection back on a new one.
func (h *httpClient) post(id string, msg []byte, header map[string]string) (*http.Response, error) {
	if h.rc == nil {
		return h.request(h.ctx, http.MethodPost, msg, header)
	}
	for try := 0; ; try++ {
		if !sleep(h.ctx, h.rc.delay(try)) {
			return nil, ErrClosed
		}
		if !h.connectionIs(id) {
			return nil, errReconnected
		}
		resp, err := h.postOnce(msg, header)
		if err == nil {
			if resp.StatusCode == http.StatusNotFound {
				herr := newHTTPError("ACP POST failed", resp)
				resp.Body.Close()
				h.startRebuild(id, herr)
				return nil, errReconnected
			}
			return resp, nil
		}
		if h.ctx.Err() != nil || try+1 >= h.rc.MaxTries {
			return nil, err
		}
	}
}

// postOnce POSTs msg once: a POST whose answer does not come within
// five keep-alive intervals (and at least minPostWait) has met a dead
// connection, and fails.
func (h *httpClient) postOnce(msg []byte, header map[string]string) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(h.ctx, max(5*h.rc.KeepAlive, minPostWait))
	resp, err := h.request(ctx, http.MethodPost, msg, header)
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelBody{resp.Body, cancel}
	return resp, nil
}

// cancelBody ends the context of its request once closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// refused reports whether err is the server's refusal of a resume: 409
// with the reason a cursor cannot be resumed from, 404 or 410 for a
// connection it does not know. A 409 without a reason refuses a second
// receiver of a stream opened without a cursor, while the server has not
// yet seen that the first has gone: worth another try.
func refused(err error) bool {
	var he *HTTPError
	if !errors.As(err, &he) {
		return false
	}
	switch he.Status {
	case http.StatusConflict:
		return strings.Contains(he.Body, `"reason"`)
	case http.StatusNotFound, http.StatusGone:
		return true
	}
	return false
}

// resumeSSE resumes the stream of session after it ended with err (nil
// for a clean end): it GETs it again with the cursor of the last message
// taken, with backoff, until it streams again, in a loop that ends with
// the transport. A refusal, or a server that does not resume streams,
// starts taking the connection back on a new one (errReconnected). It
// returns the error of the last try once the tries run out.
func (h *httpClient) resumeSSE(ctx context.Context, id, session string, opened func(), st *streamState, err error) error {
	if !h.book.isResumable() {
		if err == nil {
			err = errors.New("acphttp: the stream ended")
		}
		h.startRebuild(id, fmt.Errorf("acphttp: the server does not resume streams: %w", err))
		return errReconnected
	}
	for tries := 0; tries < h.rc.MaxTries; tries++ {
		if !sleep(ctx, h.rc.delay(tries)) {
			return ctx.Err()
		}
		st.opened = false
		st.silent.Store(false)
		err = h.readSSE(ctx, id, session, opened, st)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if refused(err) {
			h.startRebuild(id, err)
			return errReconnected
		}
		if st.opened {
			tries = -1 // it streamed again, then dropped again
		}
	}
	if err == nil {
		err = errors.New("acphttp: the stream kept ending")
	}
	return err
}

// startRebuild starts taking the connection id back on a new connection,
// unless the transport has closed, has left id already, or is doing so.
func (h *httpClient) startRebuild(id string, reason error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || h.gate != nil || h.id != id {
		return
	}
	h.gate = make(chan struct{})
	h.connCancel()
	h.connCtx, h.connCancel = context.WithCancel(h.ctx)
	h.sessions, h.known = map[string]*sessionStream{}, map[string]bool{}
	h.sessionErrs, h.pendingRequests = map[string]error{}, map[string]pendingRequest{}
	h.responseSessions = map[string]string{}
	h.wg.Add(2)
	go func() {
		defer h.wg.Done()
		_ = h.delete(id) // what is left of it on the server
	}()
	go h.rebuild(reason)
}

// rebuild takes the connection back on a new one: initialize again with
// the program's params, fail the requests that were waiting for an
// answer, and take back each session with session/resume (v2) or
// session/load (v1). The program's messages wait till then.
func (h *httpClient) rebuild(reason error) {
	defer h.wg.Done()
	defer func() {
		h.mu.Lock()
		if h.gate != nil {
			close(h.gate)
			h.gate = nil
		}
		h.mu.Unlock()
	}()
	sessions, requests, lost := h.book.rebuild()
	for _, id := range lost {
		h.in.put(h.ctx, requestError(id, reason), true)
	}
	id, err := h.reinitialize()
	if err != nil {
		h.fail(fmt.Errorf("acphttp: reconnecting after %v: %w", reason, err))
		return
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.id = id
	ctx := h.connCtx
	h.wg.Add(1)
	h.mu.Unlock()
	go h.openSSE(ctx, id, "", nil)
	for i, s := range sessions {
		m, _ := scan(requests[i])
		ch := make(chan bool, 1)
		h.mu.Lock()
		if h.waiters == nil {
			h.waiters = map[string]chan bool{}
		}
		h.waiters[m.idKey()] = ch
		h.mu.Unlock()
		ok := h.postConnected(id, &m, requests[i]) == nil && h.await(ch)
		if h.rc.OnRebuilt != nil {
			h.rc.OnRebuilt(Rebuilt{SessionID: s, Err: reason, Failed: !ok})
		}
	}
}

// await waits for the answer ch brings, within rebuildWait, and reports
// whether it was a result.
func (h *httpClient) await(ch chan bool) bool {
	t := time.NewTimer(rebuildWait)
	defer t.Stop()
	select {
	case ok := <-ch:
		return ok
	case <-t.C:
	case <-h.ctx.Done():
	}
	return false
}

// reinitialize opens a new connection with the program's initialize
// params, with backoff, and returns its id.
func (h *httpClient) reinitialize() (string, error) {
	msg := h.book.initRequest()
	var err error
	for try := 0; try < h.rc.MaxTries; try++ {
		if !sleep(h.ctx, h.rc.delay(try)) {
			return "", ErrClosed
		}
		resp, e := h.postOnce(msg, map[string]string{"Content-Type": mimeJSON})
		if e != nil {
			err = e
			continue
		}
		if resp.StatusCode/100 != 2 {
			err = newHTTPError("ACP initialize failed", resp)
			resp.Body.Close()
			continue
		}
		body, e := io.ReadAll(io.LimitReader(resp.Body, int64(h.max)+1))
		resp.Body.Close()
		id := resp.Header.Get(HeaderConnectionID)
		if e != nil || id == "" {
			err = errors.Join(e, errors.New("acphttp: the initialize response has no Acp-Connection-Id"))
			continue
		}
		h.book.initialized(body)
		return id, nil
	}
	return "", err
}
