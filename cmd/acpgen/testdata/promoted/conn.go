// Package promoted is a package whose connection type embeds an unexported
// one, as the generated sides do: go doc shows the methods it promotes.
package promoted

import "encoding/json"

// Conn is a connection.
type Conn struct {
	*conn
}

type conn struct{}

// Close ends the connection.
func (c *conn) Close() error { return nil }

// Peer is an exported type, which lists its own methods.
type Peer struct{}

// Hello greets.
func (Peer) Hello() {}

// Pair embeds Peer: go doc leaves Hello to Peer.
type Pair struct {
	Peer
}

// Raw stands for json.RawMessage.
type Raw = json.RawMessage
