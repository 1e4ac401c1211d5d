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
	"github.com/acpgen/acpgen/acprouter"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
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
	for _, id := range []ID{RemoteHTTPInitialize, RemoteWSUpgrade} {
		if vs := r.Find(id); len(vs) != 1 || vs[0].Status != Pass {
			t.Errorf("%s: %+v\n%s", id, vs, r.Text())
		}
	}
}

// TestAgentV2OnlyNotApplicable: an agent that offers version 2 alone, a
// plain acpv2 connection or acprouter with a v2 route, answers a v1
// initialize -32022 "Unsupported protocol version", never a decode error;
// the default run (versions 1 and 2) reports version 1 not applicable,
// fails no MUST of it and checks version 2.
func TestAgentV2OnlyNotApplicable(t *testing.T) {
	start := func(w io.Writer, r io.Reader) *acpv2.AgentSideConnection {
		return acpv2.NewAgentSideConnectionFunc(func(c *acpv2.AgentSideConnection) acpv2.Agent {
			return v2Only{acpv2.NewTurnRunner(c, func(ctx context.Context, t *acpv2.Turn) error { return nil }, nil)}
		}, w, r)
	}
	router, err := acprouter.New(acprouter.NewRoute(2, start, convert.InitializeForV2))
	if err != nil {
		t.Fatal(err)
	}
	for name, connect := range map[string]acphttp.ConnectFunc{
		"acpv2": func(_ *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
			return start(out, in), nil
		},
		"acprouter": func(_ *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
			return router.Start(out, in), nil
		},
	} {
		acp := acphttp.NewServer(connect, nil)
		hs := httptest.NewServer(acp)
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = acp.Shutdown(ctx)
			hs.Close()
		})
		r := CheckAgent(context.Background(), &URLTarget{URL: hs.URL + "/acp"}, AgentOptions{Timeout: 2 * time.Second, NoPrompt: true})
		var v1NA, v2Pass bool
		for _, v := range r.Find(AgentInitAnswer) {
			v1NA = v1NA || v.Version == 1 && v.Status == NotApplicable && strings.Contains(v.Detail, "-32022")
			v2Pass = v2Pass || v.Version == 2 && v.Status == Pass
		}
		if !v1NA || !v2Pass {
			t.Errorf("%s: agent.init.answer: v1 not applicable after -32022 %v, v2 pass %v\n%s", name, v1NA, v2Pass, r.Text())
		}
		for _, v := range r.Failed() {
			if v.Version == 1 {
				t.Errorf("%s: a MUST of version 1 failed: %+v", name, v)
			}
		}
	}
}
