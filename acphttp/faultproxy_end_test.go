package acphttp_test

import (
	"io"
	"net"
	"testing"
	"time"
)

// TestFaultProxyEndsCleanLinks: a link whose two ways end cleanly (each
// end closes after the other's end came through) goes, rather than
// copying the end of a way again and again on goroutines that never end
// and take the CPU from the connections under test.
func TestFaultProxyEndsCleanLinks(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	served := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			served <- err
			return
		}
		defer c.Close()
		_, err = io.Copy(c, c) // an echo, till the client's end
		served <- err
	}()
	p := newFaultProxy(t, ln.Addr().String(), 1)
	c, err := net.Dial("tcp", p.addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	if err := c.(*net.TCPConn).CloseWrite(); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(c)
	if err != nil || string(got) != "hello" {
		t.Fatalf("read %q, %v; want the echo and a clean end", got, err)
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	var open *link
	for l := range p.links {
		open = l
	}
	p.mu.Unlock()
	if open == nil {
		return // gone already
	}
	select {
	case <-open.closed:
	case <-time.After(10 * time.Second):
		t.Fatal("a link whose two ways ended cleanly is still carried")
	}
}
