//go:build unstable_session_fork || unstable

package acpv2test

import (
	"context"
	"io"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/conntest"
)

// forkAgent handles the unstable session/fork.
type forkAgent struct{ testAgent }

func (a *forkAgent) ForkSession(ctx context.Context, p *acpv2.ForkSessionRequest) (*acpv2.ForkSessionResponse, error) {
	return &acpv2.ForkSessionResponse{SessionID: p.SessionID + "-fork"}, nil
}

// TestConnUnstableMethod calls session/fork, which the feature's build tag
// adds: an agent that implements AgentForkSession serves it, one that does
// not answers "method not found".
func TestConnUnstableMethod(t *testing.T) {
	p := conntest.NewPair(t, testPackage)
	if _, err := p.ClientConn.(*acpv2.ClientSideConnection).ForkSession(conntest.Ctx(t), &acpv2.ForkSessionRequest{SessionID: "s", Cwd: "/"}); !conntest.HasCode(err, int(acpv2.ErrorCodeMethodNotFound)) {
		t.Errorf("session/fork to an agent without it: %v", err)
	}

	fork := *testPackage
	fork.Agent = func(h *conntest.Handlers, w io.Writer, r io.Reader, o conntest.Options) (conntest.Conn, map[string]conntest.Call) {
		return acpv2.NewAgentSideConnection(&forkAgent{testAgent{h}}, w, r, options(o)...), nil
	}
	conntest.NewRawAgentPeer(t, &fork, &conntest.Handlers{}, false).Exchange([]conntest.Line{{
		`{"jsonrpc":"2.0","id":1,"method":"session/fork","params":{"sessionId":"s","cwd":"/"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s-fork"}}`,
	}})
}
