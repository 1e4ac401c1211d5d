package conntest

import (
	"bufio"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// parkingInput is an input with ReadOrPark: it parks the connection's
// reader whenever it holds nothing, and wakes it when a line is sent or it
// is closed.
type parkingInput struct {
	mu     sync.Mutex
	queue  []byte
	early  []string // handed over while the reader parks, one at each park
	resume func()   // the parked reader's
	closed bool
	parks  int
}

// Read is never called: the connection reads with ReadOrPark.
func (p *parkingInput) Read([]byte) (int, error) {
	return 0, errors.New("Read called on an input with ReadOrPark")
}

func (p *parkingInput) ReadOrPark(b []byte, resume func()) (int, bool, error) {
	p.mu.Lock()
	switch {
	case len(p.queue) > 0:
		n := copy(b, p.queue)
		p.queue = p.queue[n:]
		p.mu.Unlock()
		return n, false, nil
	case p.closed:
		p.mu.Unlock()
		return 0, false, io.EOF
	}
	p.parks++
	if len(p.early) > 0 {
		// A line comes while the reader parks: it is woken before it is
		// done parking.
		p.queue = append(p.queue, p.early[0]...)
		p.early = p.early[1:]
		p.mu.Unlock()
		resume()
		return 0, true, nil
	}
	p.resume = resume
	p.mu.Unlock()
	return 0, true, nil
}

// wake takes the parked reader's resume, if it is parked, and calls it.
func (p *parkingInput) wake(change func()) {
	p.mu.Lock()
	change()
	resume := p.resume
	p.resume = nil
	p.mu.Unlock()
	if resume != nil {
		resume()
	}
}

func (p *parkingInput) send(s string) { p.wake(func() { p.queue = append(p.queue, s...) }) }

func (p *parkingInput) Close() error {
	p.wake(func() { p.closed = true })
	return nil
}

// parked reports whether the reader is parked, and how often it parked.
func (p *parkingInput) parked() (bool, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resume != nil, p.parks
}

// Parking: over an input with ReadOrPark, the connection's reader parks
// whenever no input waits, and holds no goroutine then; it reads on when
// woken, also when woken before it is done parking, and across a line too
// long for the limit; Close wakes and ends it.
func Parking(t *testing.T, pkg *Package) {
	in := &parkingInput{}
	out, w := io.Pipe()
	lines := bufio.NewScanner(out)
	base := runtime.NumGoroutine()
	hs := &Handlers{}
	agentHandlers(pkg, hs, func(string) {})
	conn, _ := pkg.Agent(hs, w, in, Options{MaxMessageBytes: 200})
	defer out.Close()
	// A reader that fails to wake leaves recv waiting: it stops it.
	watchdog := time.AfterFunc(time.Minute, func() { out.CloseWithError(errors.New("no answer within a minute")) })
	defer watchdog.Stop()
	waitParked := func(parks int) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
			if parked, n := in.parked(); parked && n >= parks {
				return
			}
			if time.Now().After(deadline) {
				t.Fatal("the reader did not park")
			}
		}
	}
	// recv reads one line for each of wants, in any order: requests are
	// served each on a goroutine of its own.
	recv := func(wants ...string) {
		t.Helper()
		var got []string
		for range wants {
			if !lines.Scan() {
				t.Fatalf("no line: %v", lines.Err())
			}
			got = append(got, lines.Text())
		}
		all := strings.Join(got, "\n")
		for _, want := range wants {
			if !strings.Contains(all, want) {
				t.Errorf("got %s, want a line with %s", all, want)
			}
		}
	}
	waitParked(1)
	if n := runtime.NumGoroutine(); n > base {
		t.Errorf("%d goroutines for a parked connection, want none", n-base)
	}
	in.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":` + pkg.InitializeParams + "}\n")
	recv(`"id":1,"result"`)
	waitParked(2)
	// Half a line, then a park, then the rest.
	in.send(`{"jsonrpc":"2.0","id":2,"method":"no/`)
	waitParked(3)
	in.send("such\"}\n")
	recv(`"id":2,"error":{"code":-32601`)
	// A line too long, cut by a park, and the line after it.
	waitParked(4)
	in.send(`{"jsonrpc":"2.0","id":3,"method":"no/such","params":"` + strings.Repeat("x", 300))
	waitParked(5)
	in.send(strings.Repeat("x", 300) + "\"}\n" + `{"jsonrpc":"2.0","id":4,"method":"no/such"}` + "\n")
	recv(`"id":3,"error":{"code":-32600`, `"id":4,"error":{"code":-32601`)
	// Woken before it is done parking.
	waitParked(6)
	in.mu.Lock()
	in.early = []string{`{"jsonrpc":"2.0","id":5,"method":"no/such"}` + "\n"}
	in.mu.Unlock()
	in.send(`{"jsonrpc":"2.0","id":6,"method":"no/such"}` + "\n")
	recv(`"id":6,"error"`, `"id":5,"error"`)
	waitParked(8)
	go func() { _, _ = io.Copy(io.Discard, out) }()
	if err := conn.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	select {
	case <-conn.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the connection did not end")
	}
}
