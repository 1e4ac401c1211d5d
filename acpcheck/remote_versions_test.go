package acpcheck

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// v2Only is an agent of protocol version 2 alone.
type v2Only struct{ *acpv2.TurnRunner }

func (v2Only) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	return acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "v2-only", Version: "1.0.0"}), nil
}

// TestRemoteHonoursVersions: on an endpoint whose agent serves version 2
// alone, acpcheck remote with -versions 2 initializes with version 2, and
// the initialize and the WebSocket upgrade pass.
func TestRemoteHonoursVersions(t *testing.T) {
	if got := string(remoteInitialize([]int{2})); !strings.Contains(got, `"protocolVersion":2`) {
		t.Errorf("versions [2]: %s", got)
	}
	if got := string(remoteInitialize([]int{1, 2})); !strings.Contains(got, `"protocolVersion":1`) {
		t.Errorf("versions [1 2]: %s", got)
	}
	acp := acphttp.NewServer(func(_ *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		return acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
			return v2Only{acpv2.NewTurnRunner(c, func(ctx context.Context, t *acpv2.Turn) error { return nil }, nil)}
		}, out, in), nil
	}, nil)
	hs := httptest.NewServer(acp)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = acp.Shutdown(ctx)
		hs.Close()
	})
	r := CheckRemote(context.Background(), hs.URL+"/acp", RemoteOptions{Versions: []int{2}, Timeout: 2 * time.Second, NoBodyLimit: true, NoSlowReader: true})
	for _, id := range []string{"remote.http.initialize", "remote.ws.upgrade"} {
		if vs := r.Find(id); len(vs) != 1 || vs[0].Status != Pass {
			t.Errorf("%s: %+v\n%s", id, vs, r.Text())
		}
	}
}
