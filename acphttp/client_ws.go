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
	ws, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{
		HTTPClient: opts.client(),
		HTTPHeader: opts.Header.Clone(),
	})
	if err != nil {
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			return nil, newHTTPError("ACP WebSocket upgrade failed", resp)
		}
		return nil, err
	}
	ws.SetReadLimit(int64(opts.maxMessage()))
	w := &wsClient{ws: ws, id: resp.Header.Get(HeaderConnectionID)}
	w.ctx, w.cancel = context.WithCancel(context.Background())
	t := &Transport{impl: w}
	t.in.init()
	w.in = &t.in
	w.wg.Add(1)
	go w.read()
	return t, nil
}

// wsClient is the WebSocket side of a Transport.
type wsClient struct {
	ws     *websocket.Conn
	id     string
	in     *queue
	ctx    context.Context // ends when the transport does
	cancel context.CancelFunc
	wg     sync.WaitGroup // the reader
	once   sync.Once
}

func (w *wsClient) connectionID() string { return w.id }

// read queues the agent's text frames until the socket closes; binary
// frames are ignored.
func (w *wsClient) read() {
	defer w.wg.Done()
	for {
		typ, data, err := w.ws.Read(w.ctx)
		if err != nil {
			w.in.fail(closeReason(err))
			w.cancel()
			return
		}
		if typ != websocket.MessageText {
			continue
		}
		switch err := check(data); {
		case errors.Is(err, errBatch):
			w.reply(batchError)
		case errors.Is(err, errNotObject):
			w.reply(invalidRequest)
		case err != nil:
			w.reply(parseErrorReply)
		default:
			w.in.put(w.ctx, oneLine(data), false)
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
		// An error means the socket had closed already.
		_ = w.ws.Close(websocket.StatusNormalClosure, "")
		w.cancel()
	})
	w.wg.Wait()
	return nil
}
