package acprouter

import (
	"io"
	"sync"
)

// Start is Serve that does not block: it returns at once a Started, the
// connection that the client's initialize will pick, and serves on a
// goroutine of its own that ends with that connection (or, before
// initialize, when r ends). It is what a server calls where a function must
// return the connection before the client's first message is read, such as
// an acphttp.ConnectFunc, which runs before the server delivers the
// initialize:
//
//	acp := acphttp.NewServer(func(_ *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
//		return router.Start(out, in), nil
//	}, nil)
//
// The acphttp server ends each connection, on Shutdown or when the client
// leaves, by ending in and calling Close; Shutdown returns once Done is
// closed.
func (rt *Router) Start(w io.Writer, r io.Reader) *Started {
	s := &Started{done: make(chan struct{}), picked: make(chan struct{})}
	go s.serve(rt, w, r)
	return s
}

// Started is a connection of a Router that Start began: until the client's
// initialize picks a version it has no connection of its own, then it
// stands for the picked version's. It satisfies acphttp.Conn and
// io.Closer.
type Started struct {
	done   chan struct{} // closed once the picked connection ended, or Serve failed
	picked chan struct{} // closed once Serve returned

	mu     sync.Mutex
	conn   Conn
	err    error
	closed bool
}

// serve runs Serve, then waits for the picked connection to end.
func (s *Started) serve(rt *Router, w io.Writer, r io.Reader) {
	defer close(s.done)
	conn, err := rt.Serve(w, r)
	s.mu.Lock()
	s.conn, s.err = conn, err
	closed := s.closed
	s.mu.Unlock()
	close(s.picked)
	if conn == nil {
		return
	}
	if closed {
		closeConn(conn)
	}
	<-conn.Done()
}

// Done is closed when the connection has ended: the picked version's
// connection, or the input before any initialize picked one.
func (s *Started) Done() <-chan struct{} { return s.done }

// Picked is closed once the client's initialize has picked a version, or
// the input ended (or failed) before one did.
func (s *Started) Picked() <-chan struct{} { return s.picked }

// Conn returns the picked version's connection, such as a generated
// package's *AgentSideConnection, or nil before one is picked or when none
// was.
func (s *Started) Conn() Conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn
}

// Err returns why no version was picked: ErrNoInitialize when the input
// ended first, or the error of reading or writing; nil otherwise.
func (s *Started) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close closes the picked connection when it has a Close method, at once
// or as soon as it is picked. Ending the input also ends a connection not
// yet picked: that is how a server ends one.
func (s *Started) Close() error {
	s.mu.Lock()
	s.closed = true
	conn := s.conn
	s.mu.Unlock()
	if conn != nil {
		return closeConn(conn)
	}
	return nil
}

// closeConn calls conn's Close, when it has one.
func closeConn(conn Conn) error {
	if c, ok := conn.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
