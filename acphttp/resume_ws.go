package acphttp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// The control messages of a resumable WebSocket.
const (
	methodStreamResume       = "stream/resume"
	methodStreamResumeFailed = "stream/resume_failed"
	methodStreamResumed      = "stream/resumed"
)

// resumeWait bounds how long a resuming WebSocket may take to send its
// stream/resume.
const resumeWait = 10 * time.Second

// serveResumableWS serves a WebSocket of a server with resumable streams.
// Without Acp-Connection-Id it opens a connection, as serveWebSocket does;
// with it, it resumes that connection's stream: the first frame must be
// stream/resume with the cursor of the last message the client got, and
// a cursor the stream cannot resume from is answered with
// stream/resume_failed and the reason, and a close. The connection
// outlives its socket: its agent reads from an inbox and writes to the
// connection's stream, which a socket's writer takes from.
func (s *Server) serveResumableWS(w http.ResponseWriter, r *http.Request) {
	if id := r.Header.Get(HeaderConnectionID); id != "" {
		s.resumeWS(w, r, id)
		return
	}
	c := s.open(w, r, true)
	if c == nil {
		return
	}
	w.Header().Set(HeaderConnectionID, c.id)
	netc, rw, _, err := ws.HTTPUpgrader{Header: w.Header()}.Upgrade(r, w)
	if err != nil {
		if netc != nil {
			netc.Close()
		}
		c.close(nil)
		return
	}
	k := newRSock(c, netc, rw.Reader)
	c.mu.Lock()
	gen, _ := c.resumeLocked(&c.main, "", "", nil)
	c.main.detach = k.kill
	c.mu.Unlock()
	k.start(gen, true)
}

// resumeWS resumes the stream of the connection id on the WebSocket r
// asks for.
func (s *Server) resumeWS(w http.ResponseWriter, r *http.Request, id string) {
	s.mu.Lock()
	c := s.conns[id]
	ok := c != nil && c.ws && c.rs != nil && !s.shutdown
	if ok {
		// Shutdown waits for the resume, and then for the socket's
		// goroutines, which it starts.
		s.wg.Add(1)
	}
	s.mu.Unlock()
	if !ok {
		textResponse(w, http.StatusNotFound, "Unknown Acp-Connection-Id")
		return
	}
	defer s.wg.Done()
	if c.isClosed() {
		textResponse(w, http.StatusNotFound, "Unknown Acp-Connection-Id")
		return
	}
	h := http.Header{}
	h.Set(HeaderConnectionID, id)
	netc, rw, _, err := ws.HTTPUpgrader{Header: h}.Upgrade(r, w)
	if err != nil {
		if netc != nil {
			netc.Close()
		}
		return
	}
	k := newRSock(c, netc, rw.Reader)
	_ = netc.SetReadDeadline(time.Now().Add(resumeWait))
	data, err := k.readMessage()
	_ = netc.SetReadDeadline(time.Time{})
	var cursor string
	if err == nil {
		cursor, err = resumeCursor(data)
	}
	if err != nil {
		k.closeWith(ws.StatusProtocolError, "First message must be stream/resume")
		_ = netc.Close()
		return
	}
	c.mu.Lock()
	gen, reason := c.resumeLocked(&c.main, "", cursor, c.knownSessionsLocked())
	if reason == "" {
		c.main.detach = k.kill
	}
	c.mu.Unlock()
	if reason != "" {
		b := append([]byte(`{"jsonrpc":"2.0","method":"`+methodStreamResumeFailed+`","params":`), resumeFailure(reason, cursor)...)
		_ = k.sendFrame(ws.NewTextFrame(append(b, '}')))
		k.closeWith(ws.StatusPolicyViolation, "Resume refused: "+reason)
		_ = netc.Close()
		return
	}
	k.start(gen, false)
}

// resumeCursor returns the cursor of the connection's stream in data, a
// stream/resume message: params.cursors.connection.
func resumeCursor(data []byte) (string, error) {
	m, err := scan(data)
	if err != nil || m.method != methodStreamResume {
		return "", errors.New("not stream/resume")
	}
	params := topMember(data, "params")
	cursors := topMember(params, "cursors")
	v := topMember(cursors, "connection")
	if len(v) < 2 || v[0] != '"' {
		return "", errors.New("stream/resume without params.cursors.connection")
	}
	return unquote(v), nil
}

// rsock is one WebSocket of a connection with resumable streams: a reader
// that hands the client's messages to the agent, and a writer that takes
// the connection's stream; both end with the socket. The reader parks
// while the client sends nothing, as a plain WebSocket's does (see
// parkedSock): an idle socket holds no goroutine.
type rsock struct {
	c       *conn
	netc    net.Conn
	in      wsutil.Reader
	pre     *bytes.Reader   // what the client sent right after its request, read first
	ctx     context.Context // ends with the socket (see kill)
	cancel  context.CancelFunc
	parking parkedSock // the reader's
	wmu     sync.Mutex
	once    sync.Once
	first   bool // the reader's: the next message must be initialize
	bye     bool // the client sent a close frame: the connection ends
	gen     uint64
	ping    *time.Timer // the keep-alive, reset by each write
	unhook  func() bool // stops closeOnEnd
}

func newRSock(c *conn, netc net.Conn, br *bufio.Reader) *rsock {
	k := &rsock{c: c, netc: netc}
	var src io.Reader = netc
	if br != nil && br.Buffered() > 0 {
		b, _ := br.Peek(br.Buffered())
		k.pre = bytes.NewReader(bytes.Clone(b))
		src = io.MultiReader(k.pre, netc)
	}
	k.parking.init(netc)
	k.in = wsutil.Reader{Source: src, State: ws.StateServerSide, MaxMessageSize: int64(c.limits.MaxMessageBytes)}
	// Not the connection's: a socket whose connection ends sends its close
	// frame, then ends.
	k.ctx, k.cancel = context.WithCancel(context.Background())
	return k
}

// start runs the socket's reader, for the stream's receiver of
// generation gen, and sends what the stream holds; first says the socket
// opened the connection, and its first message must be initialize. The
// stream's messages are written by whoever queues them (the agent's
// write, see conn.flushSocket), the keep-alive by a timer, and the reader
// parks while nothing comes: an idle socket has no goroutine.
func (k *rsock) start(gen uint64, first bool) {
	c := k.c
	k.gen, k.first = gen, first
	k.ping = time.AfterFunc(c.keepAlive(), k.keepAlive)
	k.unhook = context.AfterFunc(c.ctx, k.closeOnEnd)
	c.mu.Lock()
	if c.main.gen == gen {
		c.rs.sock = k
	}
	c.mu.Unlock()
	k.flush()
	c.s.wg.Add(1) // till end
	go k.reader()
}

// reader reads the client's messages until the socket ends, then ends
// it; or until nothing comes, and parks: the poller calls it again.
func (k *rsock) reader() {
	if k.read() {
		return
	}
	k.end()
}

// end ends the socket once its reader has stopped: the connection ends
// with it when the client said goodbye, and otherwise lives on for its
// grace period.
func (k *rsock) end() {
	c := k.c
	defer c.s.wg.Done()
	k.kill()
	k.ping.Stop()
	k.unhook()
	k.wmu.Lock() // a write under way ends first
	k.parking.stop(&c.s.poll)
	_ = k.netc.Close()
	k.wmu.Unlock()
	c.mu.Lock()
	if c.rs.sock == k {
		c.rs.sock = nil
	}
	c.mu.Unlock()
	if k.bye {
		c.close(nil)
		return
	}
	c.releaseResumable("", &c.main, k.gen)
}

// park parks the reader, when it can (see parkedSock.park): at the start
// of a frame, once what came with the upgrade request is read.
func (k *rsock) park() bool {
	if k.pre != nil && k.pre.Len() > 0 {
		return false
	}
	return k.parking.park(&k.c.s.poll, k.rewake)
}

// rewake is what the poller calls to wake the parked reader.
func (k *rsock) rewake() { go k.reader() }

// keepAlive pings the client each keep-alive interval the socket writes
// nothing.
func (k *rsock) keepAlive() {
	k.c.checkAgent()
	if k.ctx.Err() != nil {
		return
	}
	if k.sendFrame(ws.NewPingFrame(nil)) != nil {
		k.kill()
		return
	}
	k.ping.Reset(k.c.keepAlive())
}

// closeOnEnd ends the socket once its connection has ended: what the
// stream still holds goes out when the agent ended (not when the
// connection was closed), then the close frame.
func (k *rsock) closeOnEnd() {
	c := k.c
	k.flush()
	c.mu.Lock()
	code, reason := closeStatus(c.closeErr)
	c.mu.Unlock()
	k.closeWith(code, reason)
}

// kill ends the socket: its reader and writer stop, and a parked reader
// is started again to find it so. It may be called with c.mu held.
func (k *rsock) kill() {
	k.once.Do(func() {
		k.cancel()
		_ = k.netc.SetDeadline(time.Now())
		if resume := k.parking.stop(&k.c.s.poll); resume != nil {
			resume()
		}
	})
}

// read hands the client's messages to the agent until the socket ends,
// or until no frame waits and the reader parks (it reports true).
func (k *rsock) read() (parked bool) {
	c := k.c
	for {
		if k.park() {
			return true
		}
		data, err := k.readMessage()
		if err != nil {
			var perr ws.ProtocolError
			switch {
			case errors.Is(err, wsutil.ErrMessageTooLarge), errors.Is(err, wsutil.ErrFrameTooLarge):
				c.close(&wsCloseError{ws.StatusMessageTooBig, "Message too big"})
			case errors.As(err, &perr):
				c.close(&wsCloseError{ws.StatusProtocolError, err.Error()})
			}
			return false
		}
		line, ok := k.handle(data, k.first)
		if !ok {
			return false
		}
		if line == nil {
			continue
		}
		// Delivered whether or not the socket lasts: the client sends a
		// request again after a drop, and the connection takes it once.
		if c.deliver(c.ctx, line) != nil {
			return false
		}
		if k.first {
			k.first = false
			if !k.initialized(data) {
				return false
			}
		}
	}
}

// initialized waits for the agent's answer to initialize, and reports
// whether it answered it first.
func (k *rsock) initialized(data []byte) bool {
	c := k.c
	select {
	case resp := <-c.initial:
		if resp != nil {
			return true
		}
	case <-c.ctx.Done():
		return false
	}
	m, _ := scan(data)
	_ = k.sendFrame(ws.NewTextFrame(initializeFailed(m.id)))
	c.close(&wsCloseError{ws.StatusInternalServerError, "Initialize failed"})
	return false
}

// handle checks one text frame of the client: it returns the line to hand
// to the agent, nil for a frame answered or dropped, and false once the
// connection has closed.
func (k *rsock) handle(data []byte, first bool) ([]byte, bool) {
	c := k.c
	m, err := scan(data)
	switch {
	case errors.Is(err, errBatch):
		return nil, k.reply(batchError)
	case errors.Is(err, errNotObject):
		return nil, k.reply(invalidRequest)
	case err != nil:
		return nil, k.reply(parseErrorReply)
	}
	if first {
		switch {
		case !m.isInitialize():
			c.close(&wsCloseError{ws.StatusProtocolError, "First message must be initialize"})
			return nil, false
		case string(m.id) == "null":
			c.close(&wsCloseError{ws.StatusProtocolError, "Initialize request must include an ID"})
			return nil, false
		}
		c.mu.Lock()
		c.initialID = m.id
		c.mu.Unlock()
		return append(oneLine(data), '\n'), true
	}
	if m.isRequest() && m.isInitialize() {
		b := append([]byte(`{"jsonrpc":"2.0","id":`), m.id...)
		return nil, k.reply(append(b, `,"error":{"code":-32600,"message":"Initialize not allowed on existing connection"}}`...))
	}
	if m.paramsSession != nil && m.hasMethod {
		if err := c.limits.idTooLong("Session ID", *m.paramsSession); err != nil {
			c.close(err)
			return nil, false
		}
	}
	if id, ok := m.stringID(); ok && m.isRequest() {
		if err := c.limits.idTooLong("Request ID", id); err != nil {
			c.close(err)
			return nil, false
		}
	}
	if !c.admit(&m) {
		return nil, true
	}
	return append(oneLine(data), '\n'), true
}

// reply sends a message of the transport's own, and reports true.
func (k *rsock) reply(msg []byte) bool {
	_ = k.sendFrame(ws.NewTextFrame(msg))
	return true
}

// readMessage returns the next text message of the client, answering
// pings and skipping binary frames; io.EOF once the client sent a close
// frame.
func (k *rsock) readMessage() ([]byte, error) {
	for {
		h, err := k.in.NextFrame()
		if err != nil {
			return nil, err
		}
		if h.OpCode.IsControl() {
			payload, err := io.ReadAll(&k.in)
			if err != nil {
				return nil, err
			}
			switch h.OpCode {
			case ws.OpPing:
				_ = k.sendFrame(ws.NewPongFrame(payload))
			case ws.OpClose:
				k.bye = true
				k.closeWith(ws.StatusNormalClosure, "")
				return nil, io.EOF
			}
			continue
		}
		if h.OpCode != ws.OpText {
			if err := k.in.Discard(); err != nil {
				return nil, err
			}
			continue
		}
		return io.ReadAll(&k.in)
	}
}

// flush writes what the stream holds to the socket, each batch with one
// system call, while the socket is the stream's receiver. The agent's
// write calls it, so that its messages go out in its own goroutine, as
// over a plain WebSocket; the order of the stream is kept by holding the
// socket's lock from taking to writing.
func (k *rsock) flush() {
	c := k.c
	k.wmu.Lock()
	defer k.wmu.Unlock()
	buf := framePool.Get().(*bytes.Buffer)
	defer putFrameBuffer(buf)
	for {
		buf.Reset()
		c.mu.Lock()
		mb := &c.main
		for len(mb.queue) > 0 && buf.Len() < maxBatch && mb.gen == k.gen && !mb.aborted && k.ctx.Err() == nil {
			msg := c.dequeueLocked(mb)
			writeTextHeader(buf, len(msg))
			buf.Write(msg)
		}
		c.mu.Unlock()
		if buf.Len() == 0 {
			return
		}
		if k.writeLocked(buf.Bytes()) != nil {
			k.kill()
			return
		}
		k.ping.Reset(c.keepAlive())
	}
}

// flushSocket sends what the connection's stream holds on its socket, if
// it has one: a resumable WebSocket's agent writes so.
func (c *conn) flushSocket() {
	c.mu.Lock()
	k := c.rs.sock
	c.mu.Unlock()
	if k != nil {
		k.flush()
	}
}

// sendFrame writes one frame to the socket.
func (k *rsock) sendFrame(f ws.Frame) error {
	b, err := ws.CompileFrame(f)
	if err != nil {
		return err
	}
	return k.send(b)
}

// send writes b to the socket, within MaxOutputStall.
func (k *rsock) send(b []byte) error {
	k.wmu.Lock()
	defer k.wmu.Unlock()
	return k.writeLocked(b)
}

// writeLocked is send with k.wmu held.
func (k *rsock) writeLocked(b []byte) error {
	if k.ctx.Err() != nil {
		return ErrClosed
	}
	_ = k.netc.SetWriteDeadline(time.Now().Add(k.c.limits.MaxOutputStall))
	_, err := k.netc.Write(b)
	return err
}

// closeWith sends a close frame and ends the socket.
func (k *rsock) closeWith(code ws.StatusCode, reason string) {
	_ = k.sendFrame(ws.NewCloseFrame(ws.NewCloseFrameBody(code, reason)))
	k.kill()
}
