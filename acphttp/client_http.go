package acphttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// maxErrorBody bounds the text of an HTTP error kept in an error.
const maxErrorBody = 8 << 10

// closeTimeout bounds the DELETE that ends a connection.
const closeTimeout = 10 * time.Second

// HTTPError is the error of a request the server refused.
type HTTPError struct {
	Op     string // what failed, such as "ACP POST failed"
	Status int
	Body   string // the start of the response body
	text   string
}

func (e *HTTPError) Error() string { return e.text }

// newHTTPError reads the start of resp's body into an HTTPError.
func newHTTPError(op string, resp *http.Response) *HTTPError {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	text := op + ": " + resp.Status
	if len(body) > 0 {
		text += ": " + string(body)
	}
	return &HTTPError{Op: op, Status: resp.StatusCode, Body: string(body), text: text}
}

// connectionFailure reports the statuses of a POST that mean the whole
// connection is unusable, as the TypeScript client takes them.
func connectionFailure(status int) bool {
	return status == 401 || status == 403 || status == 404 || status == 410
}

// DialHTTP returns a transport that speaks Streamable HTTP to the ACP
// endpoint at url: each client message is a POST, and the agent's come on
// SSE streams, the connection's and one per session, opened as the
// TypeScript SDK's createHttpStream opens them. Nothing is sent before the
// first message, which must be initialize; ctx is only checked.
func DialHTTP(ctx context.Context, url string, opts *ClientOptions) (*Transport, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &ClientOptions{}
	}
	h := &httpClient{
		url: url, hc: opts.client(), header: opts.Header, max: opts.maxMessage(),
		sessions: map[string]*sessionStream{}, known: map[string]bool{},
		responseSessions: map[string]string{}, pendingRequests: map[string]pendingRequest{},
		sessionErrs: map[string]error{},
	}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.connCtx, h.connCancel = context.WithCancel(h.ctx)
	if opts.Reconnect != nil {
		rc := opts.Reconnect.withDefaults()
		h.rc, h.book = &rc, newBook()
	}
	t := &Transport{impl: h}
	t.in.init()
	h.in = &t.in
	return t, nil
}

// httpClient is the Streamable HTTP side of a Transport.
type httpClient struct {
	url    string
	hc     *http.Client
	header http.Header
	max    int
	in     *queue
	ctx    context.Context // ends when the transport does
	cancel context.CancelFunc
	wg     sync.WaitGroup // the SSE readers and the DELETE of a failure
	rc     *Reconnect     // nil unless the transport reconnects
	book   *book          // what it keeps to reconnect, with rc

	// connCtx ends with the connection the transport speaks to now: after
	// a reconnection that took a new connection, the old one's streams
	// end.
	connCtx    context.Context
	connCancel context.CancelFunc
	gate       chan struct{}        // while not nil, a reconnection is under way; closed once done
	waiters    map[string]chan bool // the transport's own requests awaiting their answers: true for a result

	mu               sync.Mutex
	id               string
	closed           bool
	sessions         map[string]*sessionStream
	known            map[string]bool
	responseSessions map[string]string         // agent request id → its session
	pendingRequests  map[string]pendingRequest // client requests awaiting their response on a session stream
	sessionErrs      map[string]error          // failed sessions, until session/load or session/resume
}

// sessionStream is the SSE stream of one session.
type sessionStream struct {
	ready  chan struct{} // closed once open or failed
	err    error
	cancel context.CancelFunc
}

// pendingRequest is a client request sent on a session.
type pendingRequest struct {
	session string
	id      []byte
}

func (h *httpClient) connectionID() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.id
}

// request sends one request to the endpoint with the transport's headers
// and cookies.
func (h *httpClient) request(ctx context.Context, method string, body []byte, header map[string]string) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, h.url, rd)
	if err != nil {
		return nil, err
	}
	for k, v := range h.header {
		req.Header[k] = v
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return h.hc.Do(req)
}

func (h *httpClient) send(msg []byte) error {
	h.waitGate()
	h.mu.Lock()
	closed, id := h.closed, h.id
	h.mu.Unlock()
	if closed {
		return ErrClosed
	}
	m, err := scan(msg)
	if err != nil {
		return fmt.Errorf("acphttp: writing a message that is not a JSON-RPC object: %w", err)
	}
	// The HTTP transport may read a body after Do returns, and the caller
	// may reuse msg once Write returns.
	msg = bytes.Clone(msg)
	if h.book != nil {
		h.book.sent(&m, msg)
	}
	if id == "" {
		return h.postInitialize(&m, msg)
	}
	return h.postConnected(id, &m, msg)
}

// postInitialize sends the initialize request msg, which opens the
// connection.
func (h *httpClient) postInitialize(m *message, msg []byte) error {
	err := h.initialize(m, msg)
	if err != nil {
		h.fail(err)
	}
	return err
}

func (h *httpClient) initialize(m *message, msg []byte) error {
	if !m.isInitialize() {
		return errors.New("acphttp: the first message must be initialize")
	}
	resp, err := h.request(h.ctx, http.MethodPost, msg, map[string]string{"Content-Type": mimeJSON})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return newHTTPError("ACP initialize failed", resp)
	}
	id := resp.Header.Get(HeaderConnectionID)
	if id == "" {
		return errors.New("acphttp: the initialize response has no Acp-Connection-Id")
	}
	h.mu.Lock()
	closed := h.closed
	if !closed {
		h.id = id
	}
	h.mu.Unlock()
	if closed {
		// Closed while initialize was in flight: end the connection it made.
		_ = h.delete(id)
		return ErrClosed
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(h.max)+1))
	if err != nil {
		return err
	}
	if len(body) > h.max {
		return errMessageTooLarge
	}
	r, err := scan(body)
	if err != nil || !r.isResponse() || !bytes.Equal(r.id, m.id) {
		return errors.New("acphttp: the initialize response is not the response to initialize")
	}
	if h.book != nil {
		h.book.initialized(body)
	}
	h.in.put(h.ctx, oneLine(body), true)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	h.wg.Add(1)
	go h.openSSE(h.connCtx, id, "", nil)
	return nil
}

// postConnected POSTs a message of the open connection id, opening the
// stream of its session first.
func (h *httpClient) postConnected(id string, m *message, msg []byte) error {
	session := ""
	if m.hasMethod && m.paramsSession != nil {
		session = *m.paramsSession
	} else if m.isResponse() {
		h.mu.Lock()
		session = h.responseSessions[m.idKey()]
		h.mu.Unlock()
	}
	header := map[string]string{"Content-Type": mimeJSON, HeaderConnectionID: id}
	pendingKey := ""
	if session != "" {
		if m.method == methodSessionLoad || m.method == methodSessionResume {
			h.mu.Lock()
			delete(h.sessionErrs, session)
			h.mu.Unlock()
		}
		if err := h.openSession(id, session); err != nil {
			if !isConflict(err) {
				return err
			}
			h.dropSessionMessage(m, err)
			return nil
		}
		header[HeaderSessionID] = session
		if m.isRequest() {
			pendingKey = m.idKey()
			h.mu.Lock()
			h.pendingRequests[pendingKey] = pendingRequest{session, m.id}
			h.mu.Unlock()
		}
	}
	resp, err := h.post(id, msg, header)
	if errors.Is(err, errReconnected) {
		return nil
	}
	if err == nil {
		if resp.StatusCode/100 == 2 {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
			resp.Body.Close()
			if m.isResponse() {
				h.mu.Lock()
				delete(h.responseSessions, m.idKey())
				h.mu.Unlock()
			}
			return nil
		}
		err = newHTTPError("ACP POST failed", resp)
		resp.Body.Close()
	}
	return h.postFailed(session, pendingKey, m, err)
}

// postFailed settles a message whose POST failed with err: a session
// conflict fails that session, another HTTP error fails the request, and
// anything else the transport.
func (h *httpClient) postFailed(session, pendingKey string, m *message, err error) error {
	stillPending := true
	if pendingKey != "" {
		h.mu.Lock()
		_, stillPending = h.pendingRequests[pendingKey]
		delete(h.pendingRequests, pendingKey)
		h.mu.Unlock()
	}
	if session != "" && isConflict(err) {
		h.failSession(session, err)
		h.dropSessionMessage(m, err)
		return nil
	}
	var he *HTTPError
	if errors.As(err, &he) && !connectionFailure(he.Status) && m.isRequest() {
		if stillPending {
			h.in.put(h.ctx, requestError(m.id, err), true)
		}
		return nil
	}
	h.fail(err)
	return err
}

// isConflict reports whether err is a 409: the server refused a
// session's stream, not the connection.
func isConflict(err error) bool {
	var he *HTTPError
	return errors.As(err, &he) && he.Status == http.StatusConflict
}

// dropSessionMessage settles a message of a failed session: a request is
// answered with err, anything else dropped.
func (h *httpClient) dropSessionMessage(m *message, err error) {
	switch {
	case m.isRequest():
		h.in.put(h.ctx, requestError(m.id, err), true)
	case m.isResponse():
		h.mu.Lock()
		delete(h.responseSessions, m.idKey())
		h.mu.Unlock()
	}
}

// requestError is the -32603 response to the request with id that err
// failed; an HTTP error's status and body are its data.
func requestError(id []byte, err error) []byte {
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	b = append(b, `,"error":{"code":-32603,"message":`...)
	b, _ = jsontext.AppendQuote(b, err.Error())
	var he *HTTPError
	if errors.As(err, &he) {
		b = append(b, `,"data":{"status":`...)
		b = strconv.AppendInt(b, int64(he.Status), 10)
		b = append(b, `,"body":`...)
		if body := jsontext.Value(he.Body); body.IsValid() {
			b = append(b, oneLine(body)...)
		} else {
			b, _ = jsontext.AppendQuote(b, he.Body)
		}
		b = append(b, '}')
	}
	return append(b, "}}"...)
}

// fail ends the transport with err: Read returns it, and the server is
// told to end the connection.
func (h *httpClient) fail(err error) {
	// The reason first: a request that the cancellation below cuts short,
	// or a message sent once the transport is closed, fails with it rather
	// than with its own error (context canceled, or ErrClosed).
	h.in.fail(err)
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	id := h.id
	if id != "" {
		h.wg.Add(1)
	}
	h.mu.Unlock()
	h.cancel()
	if id != "" {
		go func() {
			defer h.wg.Done()
			_ = h.delete(id)
		}()
	}
}

// close ends the connection with DELETE and waits for the transport's
// goroutines.
func (h *httpClient) close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		h.wg.Wait()
		return nil
	}
	h.closed = true
	id := h.id
	h.mu.Unlock()
	h.in.fail(ErrClosed)
	h.cancel()
	var err error
	if id != "" {
		err = h.delete(id)
	}
	h.wg.Wait()
	return err
}

// delete sends the DELETE that ends the connection id. It is sent once
// more when it fails with a cancellation that is not its own: net/http may
// hand it the connection of a request that close has just canceled, whose
// cancellation then ends the DELETE too. A DELETE can be repeated.
func (h *httpClient) delete(id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	header := map[string]string{HeaderConnectionID: id}
	resp, err := h.request(ctx, http.MethodDelete, nil, header)
	if err != nil && errors.Is(err, context.Canceled) && ctx.Err() == nil {
		resp, err = h.request(ctx, http.MethodDelete, nil, header)
	}
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return newHTTPError("ACP DELETE failed", resp)
	}
	return nil
}
