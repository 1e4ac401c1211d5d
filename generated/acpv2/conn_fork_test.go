//go:build unstable_session_fork || unstable

package acpv2

import (
	"context"
	"errors"
	"testing"
)

// forkAgent handles the unstable session/fork.
type forkAgent struct{ testAgent }

func (a *forkAgent) ForkSession(ctx context.Context, p *ForkSessionRequest) (*ForkSessionResponse, error) {
	return &ForkSessionResponse{SessionID: p.SessionID + "-fork"}, nil
}

// TestConnUnstableMethod calls session/fork, which the feature's build tag
// adds: an agent that implements AgentForkSession serves it, one that does
// not answers "method not found".
func TestConnUnstableMethod(t *testing.T) {
	ctx := ctxFor(t)
	p := newPair(t)
	if _, err := p.clientConn.ForkSession(ctx, &ForkSessionRequest{SessionID: "s", Cwd: "/"}); !isCode(err, ErrorCodeMethodNotFound) {
		t.Errorf("session/fork to an agent without it: %v", err)
	}

	peer, conn := newRawAgentPeer(t, &forkAgent{})
	_ = conn
	peer.send(`{"jsonrpc":"2.0","id":1,"method":"session/fork","params":{"sessionId":"s","cwd":"/"}}`)
	if got, want := peer.recv(), `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s-fork"}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func isCode(err error, code ErrorCode) bool {
	var rpcErr *Error
	return errors.As(err, &rpcErr) && rpcErr.Code == code
}
