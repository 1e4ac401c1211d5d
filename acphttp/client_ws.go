package acphttp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// DialWebSocket returns a transport that speaks ACP over a WebSocket to
// the endpoint at url (ws or wss), one JSON-RPC message per text frame, as
// the TypeScript SDK's createWebSocketStream does. ctx bounds the
// handshake only.
func DialWebSocket(ctx context.Context, url string, opts *ClientOptions) (*Transport, error) {
	if opts == nil {
		opts = &ClientOptions{}
	}
	w := &wsClient{url: url, hc: opts.client(), header: opts.Header, max: opts.maxMessage()}
	if opts.Reconnect != nil {
		rc := opts.Reconnect.withDefaults()
		w.rc, w.book = &rc, newBook()
	}
	ws, resp, err := w.dial(ctx, "")
	if err != nil {
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			return nil, newHTTPError("ACP WebSocket upgrade failed", resp)
		}
		return nil, err
	}
	w.ws, w.id = ws, resp.Header.Get(HeaderConnectionID)
	w.ctx, w.cancel = context.WithCancel(context.Background())
	t := &Transport{impl: w}
	t.in.init()
	w.in = &t.in
	if w.rc != nil {
		w.watch(ws)
	}
	w.wg.Add(1)
	go w.read()
	return t, nil
}

// wsClient is the WebSocket side of a Transport.
type wsClient struct {
	ws      *websocket.Conn // the socket now; under mu with Reconnect
	id      string          // under mu with Reconnect
	in      *queue
	url     string
	hc      *http.Client
	header  http.Header
	max     int
	rc      *Reconnect // nil unless the transport reconnects
	book    *book      // what it keeps to reconnect, with rc
	mu      sync.Mutex
	gate    chan struct{}        // while not nil, a reconnection is under way
	closed  bool                 // Close was called
	cursor  dedup                // the cursors of the connection's stream
	act     activity             // when the socket last heard from the server
	wait    map[string]chan bool // the transport's own requests awaiting their answers
	unwatch context.CancelFunc   // ends the watch of the socket of now
	dials   []context.CancelFunc // end the dials of the sockets open, the last the socket of now
	ctx     context.Context      // ends when the transport does
	cancel  context.CancelFunc
	wg      sync.WaitGroup // the reader
	once    sync.Once
}

func (w *wsClient) connectionID() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.id
}

// read queues the agent's text frames until the socket closes; binary
// frames are ignored.
func (w *wsClient) read() {
	defer w.wg.Done()
	ws := w.ws
	for {
		typ, data, err := ws.Read(w.ctx)
		if err != nil && w.rc != nil && w.ctx.Err() == nil && reconnectable(err) {
			if ws, err = w.reconnect(err); err == nil {
				continue // what the failed read returned is not a message
			}
		}
		if err != nil {
			w.in.fail(closeReason(err))
			w.cancel()
			return
		}
		if typ != websocket.MessageText {
			continue
		}
		if w.rc != nil {
			w.act.touch()
			deliver, refusal := w.take(data)
			if refusal != nil {
				if ws, err = w.rebuild(refusal); err != nil {
					w.in.fail(err)
					w.cancel()
					return
				}
				continue
			}
			if !deliver {
				continue
			}
		}
		switch err := check(data); {
		case errors.Is(err, errBatch):
			w.reply(batchError)
		case errors.Is(err, errNotObject):
			w.reply(invalidRequest)
		case err != nil:
			w.reply(parseErrorReply)
		default:
			w.act.pause()
			w.in.put(w.ctx, oneLine(data), false)
			w.act.resume()
		}
	}
}

// reply sends a protocol error of the transport's own.
func (w *wsClient) reply(msg []byte) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		_ = w.send(msg)
	}()
}

// closeReason returns the error a transport whose socket failed with err
// fails with.
func closeReason(err error) error {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		if ce.Reason != "" {
			return fmt.Errorf("acphttp: the WebSocket closed: %d %s: %s", int(ce.Code), ce.Code, ce.Reason)
		}
		return fmt.Errorf("acphttp: the WebSocket closed: %d %s", int(ce.Code), ce.Code)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("acphttp: the WebSocket closed without a close frame: %w", err)
	}
	return fmt.Errorf("acphttp: the WebSocket failed: %w", err)
}

func (w *wsClient) send(msg []byte) error {
	if w.ctx.Err() != nil {
		return ErrClosed
	}
	if w.rc != nil {
		return w.sendReconnecting(msg)
	}
	if err := w.ws.Write(w.ctx, websocket.MessageText, msg); err != nil {
		// A socket that fails a write fails its reader too, which reads
		// why (the close frame's status) and fails the transport with it:
		// Write returns that reason rather than the write's error.
		timer := time.NewTimer(reasonWait)
		defer timer.Stop()
		select {
		case <-w.ctx.Done():
		case <-timer.C:
		}
		return closeReason(err)
	}
	return nil
}

// reasonWait bounds how long a failed write waits for the reader to learn
// why the socket failed.
const reasonWait = time.Second

// close sends a close frame and waits for the reader.
func (w *wsClient) close() error {
	w.once.Do(func() {
		w.in.fail(ErrClosed)
		w.mu.Lock()
		w.closed = true
		ws := w.ws
		w.mu.Unlock()
		// An error means the socket had closed already.
		_ = ws.Close(websocket.StatusNormalClosure, "")
		w.cancel()
	})
	w.wg.Wait()
	return nil
}
