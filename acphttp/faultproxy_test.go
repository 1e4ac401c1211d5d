package acphttp_test

import (
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// faultProxy is a loopback TCP proxy that breaks the connections it
// carries at seeded random points of the server's output: it cuts them
// (a reset both ways), stalls them for a while, or leaves them half-open
// (nothing more goes either way, and neither end is told), as networks,
// load balancers and sleeping laptops do.
type faultProxy struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	rng    *rand.Rand
	links  map[*link]struct{}
	closed bool
	// weights of cut, stall and half-open; all zero: the proxy only
	// carries.
	cut, stall, half int
	minGap, maxGap   int // the bytes between two faults of a link

	cuts, stalls, halfOpens, accepted atomic.Int64
	wg                                sync.WaitGroup
}

// link is one client connection and the server connection it is carried
// to.
type link struct {
	client, server net.Conn
	frozen         atomic.Bool
	ended          atomic.Int32 // the ways that ended cleanly
	once           sync.Once
	closed         chan struct{}
}

// newFaultProxy starts a proxy to target (host:port) with the seed of its
// random points; it closes at the end of the test.
func newFaultProxy(t *testing.T, target string, seed uint64) *faultProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{ln: ln, target: target, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		links: map[*link]struct{}{}, minGap: 300, maxGap: 6000}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

// addr returns the proxy's address.
func (p *faultProxy) addr() string { return p.ln.Addr().String() }

// setFaults sets the weights of the faults; all zero stops them.
func (p *faultProxy) setFaults(cut, stall, half int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut, p.stall, p.half = cut, stall, half
}

// faults returns the number of faults so far.
func (p *faultProxy) faults() int64 {
	return p.cuts.Load() + p.stalls.Load() + p.halfOpens.Load()
}

func (p *faultProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		target := p.target
		p.mu.Unlock()
		s, err := net.Dial("tcp", target)
		if err != nil {
			c.Close()
			continue
		}
		p.accepted.Add(1)
		l := &link{client: c, server: s, closed: make(chan struct{})}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			l.shut()
			return
		}
		p.links[l] = struct{}{}
		p.wg.Add(2)
		p.mu.Unlock()
		go p.pipe(l, c, s, false)
		go p.pipe(l, s, c, true)
	}
}

// gap draws the bytes until the next fault of a link's server output.
func (p *faultProxy) gap() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.minGap + p.rng.IntN(p.maxGap-p.minGap+1)
}

// fault draws the next fault: 'c', 's', 'h', or 0 for none.
func (p *faultProxy) fault() (byte, time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	total := p.cut + p.stall + p.half
	if total == 0 {
		return 0, 0
	}
	n := p.rng.IntN(total)
	switch {
	case n < p.cut:
		return 'c', 0
	case n < p.cut+p.stall:
		return 's', time.Duration(5+p.rng.IntN(40)) * time.Millisecond
	}
	return 'h', 0
}

// pipe copies from src to dst; faulty says it carries the server's output,
// where the faults fall. A clean end of one way is passed on, and the
// link goes once both ways have ended, or at once on a fault or an error.
func (p *faultProxy) pipe(l *link, src, dst net.Conn, faulty bool) {
	defer p.wg.Done()
	if p.carry(l, src, dst, faulty) && l.ended.Add(1) < 2 {
		return // the other way goes on
	}
	p.drop(l)
}

// carry copies from src to dst until src ends or a fault falls; it
// reports whether src ended cleanly and the end was passed on to dst.
func (p *faultProxy) carry(l *link, src, dst net.Conn, faulty bool) bool {
	buf := make([]byte, 4096)
	budget := p.gap()
	for {
		n, err := src.Read(buf)
		if n > 0 && !l.frozen.Load() {
			b := buf[:n]
			if faulty && len(b) >= budget {
				// Deliver part, then the fault.
				if _, err := dst.Write(b[:budget]); err != nil {
					return false
				}
				b = b[budget:]
				budget = p.gap()
				switch kind, d := p.fault(); kind {
				case 'c':
					p.cuts.Add(1)
					l.reset()
					return false
				case 's':
					p.stalls.Add(1)
					time.Sleep(d)
				case 'h':
					p.halfOpens.Add(1)
					l.frozen.Store(true)
					continue
				}
			} else if faulty {
				budget -= len(b)
			}
			if _, err := dst.Write(b); err != nil {
				return false
			}
		}
		if err != nil {
			// A clean end goes on as one. Once src has ended, each read
			// ends at once: the copy stops here, or it would spin.
			tc, ok := dst.(*net.TCPConn)
			return err == io.EOF && !l.frozen.Load() && ok && tc.CloseWrite() == nil
		}
	}
}

// reset cuts both connections of l with a reset.
func (l *link) reset() {
	for _, c := range []net.Conn{l.client, l.server} {
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
	}
	l.shut()
}

// shut closes both connections of l.
func (l *link) shut() {
	l.once.Do(func() {
		l.client.Close()
		l.server.Close()
		close(l.closed)
	})
}

// drop forgets l once a direction of it has ended: a frozen link stays
// until its client gives it up (its reads end), then goes whole.
func (p *faultProxy) drop(l *link) {
	l.shut()
	p.mu.Lock()
	delete(p.links, l)
	p.mu.Unlock()
}

// close stops the proxy and every link, and waits for its goroutines.
func (p *faultProxy) close() {
	p.mu.Lock()
	p.closed = true
	links := make([]*link, 0, len(p.links))
	for l := range p.links {
		links = append(links, l)
	}
	p.mu.Unlock()
	p.ln.Close()
	for _, l := range links {
		l.shut()
	}
	p.wg.Wait()
}

// retarget sends the connections accepted from now on to target: an
// agent restarted elsewhere.
func (p *faultProxy) retarget(target string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.target = target
}

// freezeAll leaves every link open now half-open.
func (p *faultProxy) freezeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for l := range p.links {
		l.frozen.Store(true)
	}
}

// cutAll cuts every link open now.
func (p *faultProxy) cutAll() {
	p.mu.Lock()
	links := make([]*link, 0, len(p.links))
	for l := range p.links {
		links = append(links, l)
	}
	p.mu.Unlock()
	for _, l := range links {
		l.reset()
	}
}
