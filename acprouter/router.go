// Package acprouter serves the Agent Client Protocol's versions on one
// connection: it reads the client's first valid initialize request, picks the
// version that answers it, and hands the stream, that initialize included, to
// the agent-side connection of that version.
//
// It behaves on the wire as the TypeScript SDK's AgentProtocolRouter
// (@agentclientprotocol/sdk 2.4.0): before a valid initialize, notifications
// and responses are ignored, any other request is answered -32600, a batch
// gets one -32600 with id null, a line that is not JSON -32700, and an
// initialize that fails is answered with its error; none of these close the
// connection, so the client may send initialize again. The highest configured
// version at or below the requested one is picked; an endpoint that serves
// version 1 only takes every request on version 1. On a route of version 2 or
// newer the initialize needs a string or integer id. From then on the picked
// connection owns the stream and handles any repeated initialize: the router
// never re-routes.
//
// The package knows no schema. What a version's initialize params look like
// is the business of its Route, whose Initialize checks the params and
// writes them as the picked version reads them. NewRoute makes a route of a
// generated package's AgentSideConnection and the Initialize the generated
// convert package has for each version (InitializeForV1, InitializeForV2):
// this package imports none of them.
//
// Use it for an agent that serves clients of both protocol versions on one
// endpoint: stdio or a socket with Serve, or each connection of an acphttp
// server with Start, which returns before the initialize is read. The
// manual's page [Both protocol versions] has the router beside the v1 ↔ v2
// bridge and the client's negotiation.
//
// [Both protocol versions]: https://github.com/acpgen/acpgen/blob/main/docs/versions.md
package acprouter

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sort"
)

// Conn is a connection a route starts. The AgentSideConnection of each
// generated package satisfies it.
type Conn interface {
	// Done is closed when the connection has ended.
	Done() <-chan struct{}
}

// Route serves one protocol version.
type Route struct {
	// Version is the protocol version the route serves, 1 or more.
	Version int

	// Connect starts the version's agent-side connection, writing to w and
	// reading from r. r yields the initialize request first.
	Connect func(w io.Writer, r io.Reader) Conn

	// Initialize returns the params of an initialize request as the route's
	// version reads them, given the params as received (a JSON object) and
	// the protocol version the client asked for (at least Version, except on
	// a router whose only route is version 1). Params for exactly this
	// version are checked strictly; params for a newer version keep what
	// parses under this one. An error answers the request -32602, and the
	// router waits for another initialize. Initialize must set the params'
	// protocolVersion to Version.
	Initialize func(params []byte, requested int) ([]byte, error)
}

// NewRoute returns the route of protocol version that serves each client
// with the connection connect starts, its initialize params written by
// initialize (see Route). It takes the constructor of any connection type,
// such as a function that returns a generated package's
// *AgentSideConnection:
//
//	acprouter.NewRoute(2, func(w io.Writer, r io.Reader) *acpv2.AgentSideConnection {
//		return acpv2.NewAgentSideConnection(agent, w, r)
//	}, convert.InitializeForV2)
func NewRoute[C Conn](version int, connect func(w io.Writer, r io.Reader) C,
	initialize func(params []byte, requested int) ([]byte, error)) Route {
	route := Route{Version: version, Initialize: initialize}
	if connect != nil {
		route.Connect = func(w io.Writer, r io.Reader) Conn { return connect(w, r) }
	}
	return route
}

// Router picks a Route for each connection. It is safe for concurrent use:
// one Router serves any number of connections.
type Router struct {
	routes []Route // by version, ascending
}

// New returns a router of the routes, which must have distinct versions and
// their functions set.
func New(routes ...Route) (*Router, error) {
	if len(routes) == 0 {
		return nil, errors.New("acprouter: no route")
	}
	rs := append([]Route(nil), routes...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Version < rs[j].Version })
	for i, r := range rs {
		switch {
		case r.Version < 1 || r.Version > maxProtocolVersion:
			return nil, fmt.Errorf("acprouter: route version %d is not a protocol version", r.Version)
		case i > 0 && rs[i-1].Version == r.Version:
			return nil, fmt.Errorf("acprouter: two routes for version %d", r.Version)
		case r.Connect == nil || r.Initialize == nil:
			return nil, fmt.Errorf("acprouter: the route for version %d lacks Connect or Initialize", r.Version)
		}
	}
	return &Router{routes: rs}, nil
}

// ErrNoInitialize is returned by Serve when the input ends before a valid
// initialize request.
var ErrNoInitialize = errors.New("acprouter: the peer closed the connection before initialize")

// Serve reads r until a valid initialize request picks a route, answering
// what comes before it on w, then starts the route's connection on w and the
// rest of r, the initialize first, and returns it. It returns
// ErrNoInitialize when r ends first, or the error of reading r or writing w.
// Serve blocks while it reads: closing r ends it.
func (rt *Router) Serve(w io.Writer, r io.Reader) (Conn, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			route, initialize, reply := rt.decide(line)
			if reply != nil {
				if _, werr := w.Write(reply); werr != nil {
					return nil, fmt.Errorf("acprouter: writing: %w", werr)
				}
			}
			if route != nil {
				rest := io.Reader(br)
				if err != nil {
					rest = &errReader{err}
				}
				return route.Connect(w, io.MultiReader(&lineReader{line: initialize}, rest)), nil
			}
		}
		switch {
		case err == io.EOF:
			return nil, ErrNoInitialize
		case err != nil:
			return nil, fmt.Errorf("acprouter: reading: %w", err)
		}
	}
}

// lineReader yields one line, then io.EOF.
type lineReader struct{ line []byte }

func (l *lineReader) Read(p []byte) (int, error) {
	if len(l.line) == 0 {
		return 0, io.EOF
	}
	n := copy(p, l.line)
	l.line = l.line[n:]
	return n, nil
}

// errReader returns its error: the end of the input, once the initialize
// line that came with it has been read.
type errReader struct{ err error }

func (e *errReader) Read([]byte) (int, error) { return 0, e.err }

// selectRoute returns the route for the requested version, or nil.
func (rt *Router) selectRoute(requested int) *Route {
	if len(rt.routes) == 1 && rt.routes[0].Version == 1 {
		return &rt.routes[0] // the legacy fallback of version-1 endpoints
	}
	for i := len(rt.routes) - 1; i >= 0; i-- {
		if rt.routes[i].Version <= requested {
			return &rt.routes[i]
		}
	}
	return nil
}

// versions lists the configured versions.
func (rt *Router) versions() []int {
	vs := make([]int, len(rt.routes))
	for i, r := range rt.routes {
		vs[i] = r.Version
	}
	return vs
}
