//go:build !linux

package acphttp

import (
	"net"
	"sync"
)

// poller wakes the parked readers of a server's sockets: there is none
// where epoll is not, and readers never park.
type poller struct {
	wg *sync.WaitGroup
}

// parkedSock is what a socket keeps to park its reader: nothing here.
type parkedSock struct{}

// init does nothing: the reader never parks.
func (ps *parkedSock) init(netc net.Conn) {}

// park reports false: the reader never parks.
func (ps *parkedSock) park(p *poller, resume func()) bool { return false }

// stop returns nil: the reader never parks.
func (ps *parkedSock) stop(p *poller) (resume func()) { return nil }
