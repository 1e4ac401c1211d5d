package acphttp

import (
	"errors"
	"net"
	"sync"
	"syscall"
)

// poller wakes the parked readers of a server's sockets (a WebSocket's
// reader, the reader that waits for the client to close an SSE stream):
// one goroutine waits in epoll for every socket whose reader is parked, so
// that an idle connection holds no goroutine of its own. The standard
// library's network poller offers no such wait without a goroutine per
// socket. A socket is registered the first time its reader parks, rearmed
// each time after (one event each time: EPOLLONESHOT), and removed before
// it closes; the goroutine runs while a socket is registered, and the
// server's WaitGroup counts it.
type poller struct {
	wg    *sync.WaitGroup
	mu    sync.Mutex
	loop  *pollLoop // nil while no socket is registered
	socks map[int32]*parkedSock
	last  int32 // the last token handed out
}

// pollLoop is one run of the poller's goroutine, with its epoll instance
// and the pipe that stops it.
type pollLoop struct {
	epfd int
	wake [2]int // written to stop the loop
}

// errPollerFailed is what rearm returns once the poller has failed.
var errPollerFailed = errors.New("acphttp: the poller failed")

// wakeToken is the token of the pipe's read end.
const wakeToken = 0

// parkEvents are the events that wake a parked reader: input, the peer's
// end, or an error.
const parkEvents = syscall.EPOLLIN | syscall.EPOLLRDHUP | syscall.EPOLLERR | syscall.EPOLLHUP | syscall.EPOLLONESHOT

// add registers the socket w, whose file descriptor is fd, to wake its
// reader once fd can be read; it returns w's token, or an error when
// epoll fails.
func (p *poller) add(w *parkedSock, fd int) (int32, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.loop == nil {
		l, err := newPollLoop()
		if err != nil {
			return 0, err
		}
		p.loop = l
		p.wg.Add(1)
		go p.run(l)
	}
	if p.socks == nil {
		p.socks = map[int32]*parkedSock{}
	}
	for {
		if p.last++; p.last <= wakeToken { // wrapped around
			p.last = wakeToken + 1
		}
		if p.socks[p.last] == nil {
			break
		}
	}
	ev := syscall.EpollEvent{Events: parkEvents, Fd: p.last}
	if err := syscall.EpollCtl(p.loop.epfd, syscall.EPOLL_CTL_ADD, fd, &ev); err != nil {
		p.stopIfIdleLocked()
		return 0, err
	}
	p.socks[p.last] = w
	return p.last, nil
}

// rearm arms the registered fd, of token, for one more event.
func (p *poller) rearm(fd int, token int32) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.socks[token] == nil {
		return errPollerFailed
	}
	ev := syscall.EpollEvent{Events: parkEvents, Fd: token}
	return syscall.EpollCtl(p.loop.epfd, syscall.EPOLL_CTL_MOD, fd, &ev)
}

// remove unregisters the fd of token, before it closes.
func (p *poller) remove(fd int, token int32) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.socks[token] == nil {
		return // the poller failed meanwhile
	}
	_ = syscall.EpollCtl(p.loop.epfd, syscall.EPOLL_CTL_DEL, fd, nil)
	delete(p.socks, token)
	p.stopIfIdleLocked()
}

// stopIfIdleLocked stops the loop when no socket is registered.
func (p *poller) stopIfIdleLocked() {
	if len(p.socks) == 0 && p.loop != nil {
		_, _ = syscall.Write(p.loop.wake[1], []byte{0})
		p.loop = nil
	}
}

func newPollLoop() (*pollLoop, error) {
	l := &pollLoop{epfd: -1, wake: [2]int{-1, -1}}
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	l.epfd = epfd
	if err := syscall.Pipe2(l.wake[:], syscall.O_CLOEXEC|syscall.O_NONBLOCK); err != nil {
		l.close()
		return nil, err
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: wakeToken}
	if err := syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, l.wake[0], &ev); err != nil {
		l.close()
		return nil, err
	}
	return l, nil
}

// close closes the loop's file descriptors.
func (l *pollLoop) close() {
	for _, fd := range []int{l.epfd, l.wake[0], l.wake[1]} {
		if fd >= 0 {
			_ = syscall.Close(fd)
		}
	}
}

// run wakes the readers of the sockets that l reports until l is
// stopped, then closes it.
func (p *poller) run(l *pollLoop) {
	defer p.wg.Done()
	defer l.close()
	events := make([]syscall.EpollEvent, 64)
	for {
		n, err := syscall.EpollWait(l.epfd, events, -1)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			// Not expected of a valid epoll instance: every parked reader
			// is woken, to read on without parking.
			p.failed()
			return
		}
		for _, ev := range events[:n] {
			if ev.Fd == wakeToken {
				return
			}
			p.mu.Lock()
			w := p.socks[ev.Fd]
			p.mu.Unlock()
			if w != nil {
				w.wake()
			}
		}
	}
}

// failed wakes every parked reader for good, when epoll fails.
func (p *poller) failed() {
	p.mu.Lock()
	socks := p.socks
	p.socks, p.loop = nil, nil
	p.mu.Unlock()
	for _, w := range socks {
		w.wake() // and rearm fails: it reads on, blocking
	}
}

// parkedSock is what a socket keeps to park its reader.
type parkedSock struct {
	mu     sync.Mutex
	rc     syscall.RawConn // the socket's; nil when it cannot park (TLS)
	fd     int             // the socket's file descriptor, once registered
	token  int32           // its registration in the poller; 0 for none
	resume func()          // the parked reader's, until it is woken
	noPark bool            // the socket closes: the reader reads on
}

// init lets the reader of netc park, when netc is a plain TCP connection.
func (ps *parkedSock) init(netc net.Conn) {
	if sc, ok := netc.(syscall.Conn); ok {
		ps.rc, _ = sc.SyscallConn()
	}
}

// park parks the reader until the socket has something to read, and
// reports whether it did: not when something waits already, nor over TLS,
// nor once the socket closes. p wakes it, calling resume.
func (ps *parkedSock) park(p *poller, resume func()) bool {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.rc == nil || ps.noPark || ps.waiting() {
		return false
	}
	ps.resume = resume // before p can see the socket
	var err error
	if ps.token == 0 {
		var addErr error
		err = ps.rc.Control(func(fd uintptr) {
			ps.fd = int(fd)
			ps.token, addErr = p.add(ps, ps.fd)
		})
		err = errors.Join(err, addErr)
	} else {
		err = p.rearm(ps.fd, ps.token)
	}
	if err != nil {
		ps.resume = nil
		if ps.token != 0 {
			p.remove(ps.fd, ps.token)
		}
		ps.rc, ps.token = nil, 0 // the reader reads on, blocking
		return false
	}
	return true
}

// waiting reports whether bytes wait in the socket, or it ended: whether a
// read would not block; ps.mu is held.
func (ps *parkedSock) waiting() bool {
	waiting := true
	var b [1]byte
	err := ps.rc.Read(func(fd uintptr) bool {
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		waiting = err != syscall.EAGAIN
		return true
	})
	return waiting || err != nil
}

// wake starts the parked reader again, when the poller sees its socket
// ready.
func (ps *parkedSock) wake() {
	ps.mu.Lock()
	resume := ps.resume
	ps.resume = nil
	ps.mu.Unlock()
	if resume != nil {
		resume()
	}
}

// stop ends the parking of the reader, before the socket closes, and
// returns the parked reader's resume, if it was parked: the caller then
// owns the reading side until it calls it.
func (ps *parkedSock) stop(p *poller) (resume func()) {
	ps.mu.Lock()
	ps.noPark = true
	resume, ps.resume = ps.resume, nil
	fd, token := ps.fd, ps.token
	ps.token = 0
	ps.mu.Unlock()
	if token != 0 {
		p.remove(fd, token)
	}
	return resume
}
