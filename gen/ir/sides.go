package ir

// Side is a party of the protocol that implements methods: the agent or the
// client. Each side's implementation is an interface of the methods every
// implementation must have, plus one small interface per optional method,
// so that a schema revision that adds a method leaves existing
// implementations compiling.
type Side struct {
	Name string // "agent" or "client", as x-side spells it

	// Go names, filled by package names.
	GoName  string // the interface of the required methods ("Agent")
	Conn    string // the connection type that serves this side ("AgentSideConnection")
	NewConn string // its constructor ("NewAgentSideConnection")
	// NewConnFunc is its constructor that hands the connection to a
	// function returning the implementation ("NewAgentSideConnectionFunc").
	NewConnFunc string
	// RequestRoutes and NotificationRoutes are the routing tables of the
	// methods it handles ("agentRequests").
	RequestRoutes, NotificationRoutes string

	// Handles are the methods the side handles, in the order of
	// Package.Methods; Method.Required tells the base interface's apart.
	Handles []*Method
	// Peer is the other side: the one whose methods this side's connection calls.
	Peer *Side
}

// The sides, and the methods every implementation of each must handle. Any
// other method a side handles is optional: an implementation that lacks it
// answers "method not found".
var sideRequired = []struct {
	name    string
	methods []string
}{
	{"agent", []string{"initialize", "session/new", "session/prompt", "session/cancel"}},
	{"client", []string{"session/update", "session/request_permission"}},
}

// AddSides fills p.Sides from the x-side of p's methods, or leaves it empty
// when either side handles no method or the schema has no stable
// $/cancel_request, through which the connections cancel. Methods of the
// "protocol" side ($/cancel_request) are the connection's own business, and
// "proxy" methods belong to neither side.
func AddSides(p *Package) {
	p.Sides = nil
	if !hasCancelRequest(p) {
		return
	}
	for _, s := range sideRequired {
		side := &Side{Name: s.name}
		required := map[string]bool{}
		for _, m := range s.methods {
			required[m] = true
		}
		for _, m := range p.Methods {
			if m.Side != s.name {
				continue
			}
			m.Required = required[m.Name] && !m.Unstable
			side.Handles = append(side.Handles, m)
		}
		if len(side.Handles) == 0 {
			// A connection needs both sides: a schema without methods for
			// one of them gets none.
			p.Sides = nil
			return
		}
		p.Sides = append(p.Sides, side)
	}
	p.Sides[0].Peer, p.Sides[1].Peer = p.Sides[1], p.Sides[0]
}

// hasCancelRequest reports whether p has the stable protocol method
// $/cancel_request.
func hasCancelRequest(p *Package) bool {
	for _, m := range p.Methods {
		if m.Name == "$/cancel_request" && !m.Unstable {
			return true
		}
	}
	return false
}

// SideOf returns the side of p named name, or nil.
func (p *Package) SideOf(name string) *Side {
	for _, s := range p.Sides {
		if s.Name == name {
			return s
		}
	}
	return nil
}
