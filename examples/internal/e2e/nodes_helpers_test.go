package e2e

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"net/url"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/pgtest"
)

// nodes is two examples/agent -listen processes keeping their sessions in
// one Postgres, behind HAProxy with cookie affinity.
type nodes struct {
	db *sql.DB // the agents' database, to read what they wrote
	lb *balancer
}

// TestNodes runs the tests of agents on several machines, two agents on
// one throwaway Postgres behind HAProxy, one Postgres for them all.
func TestNodes(t *testing.T) {
	requireHAProxy(t)
	start := time.Now()
	binaries(t) // built once for the package's tests
	built := time.Now()
	pg := pgtest.Start(t)
	t.Logf("the examples built in %v, Postgres started in %v", built.Sub(start).Round(time.Millisecond), time.Since(built).Round(time.Millisecond))
	t.Cleanup(func() {
		stop := time.Now()
		pg.Stop()
		t.Logf("Postgres stopped in %v", time.Since(stop).Round(time.Millisecond))
	})
	db, err := sql.Open("pgx", pg.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range []struct {
		name string
		test func(*testing.T, *nodes)
	}{
		{"FailoverV2", testNodesFailoverV2},
		{"SplitBrainV2", testNodesSplitBrainV2},
		{"FailoverV1", testNodesFailoverV1},
		{"SplitBrainV1", testNodesSplitBrainV1},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, startNodes(t, pg, db)) })
	}
}

// startNodes starts two agents with -store postgres://… on pg (over its
// Unix socket) and HAProxy in front of them; the test's cleanup stops
// each by its PID.
func startNodes(t *testing.T, pg *pgtest.Server, db *sql.DB) *nodes {
	t.Helper()
	agent, _ := binaries(t)
	dsn := "postgres://postgres@/postgres?host=" + url.QueryEscape(pg.Dir) + "&sslmode=disable"
	a := listen(t, exec.Command(agent, "-listen", "127.0.0.1:0", "-store", dsn))
	b := listen(t, exec.Command(agent, "-listen", "127.0.0.1:0", "-store", dsn))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("node a:\n%s\nnode b:\n%s", a.output(), b.output())
		}
	})
	return &nodes{db: db, lb: startBalancer(t, a, b)}
}

// waitHistory returns the history of session id as Postgres holds it
// once it has want's length (a turn's last updates are committed after
// they are sent), or after 10 s.
func (n *nodes) waitHistory(t *testing.T, id string, want []string) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := n.history(t, id)
		if len(got) >= len(want) || time.Now().After(deadline) {
			return got
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// history returns the history of session id as Postgres holds it, each
// update's JSON as the agent sent it, checking that its positions run
// 1, 2, 3, … without a gap or a repeat. A row holds n updates from
// position seq, framed by sizes (their lengths as uvarints; NULL for
// one).
func (n *nodes) history(t *testing.T, id string) []string {
	t.Helper()
	rows, err := n.db.Query(`SELECT seq, n, body, sizes FROM acp_history WHERE session_id = $1 ORDER BY seq`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var bodies []string
	for rows.Next() {
		var seq, count int64
		var body, sizes []byte
		if err := rows.Scan(&seq, &count, &body, &sizes); err != nil {
			t.Fatal(err)
		}
		if seq != int64(len(bodies)+1) {
			t.Fatalf("session %s: update %d of its history is at seq %d", id, len(bodies)+1, seq)
		}
		for range count {
			size := uint64(len(body))
			if sizes != nil {
				var k int
				if size, k = binary.Uvarint(sizes); k <= 0 || size > uint64(len(body)) {
					t.Fatalf("session %s: the row at %d frames %d updates in %d bytes badly", id, seq, count, len(body))
				}
				sizes = sizes[k:]
			} else if count != 1 {
				t.Fatalf("session %s: the row at %d says %d updates without their sizes", id, seq, count)
			}
			bodies = append(bodies, normal(t, body[:size]))
			body = body[size:]
		}
		if len(body) != 0 || len(sizes) != 0 {
			t.Fatalf("session %s: the row at %d holds more than its %d updates", id, seq, count)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return bodies
}

// normal returns the params of a session/update notification b in a
// form to compare: without the _meta that a resumable transport adds (its
// cursor), members in the order of encoding/json.
func normal(t *testing.T, b []byte) string {
	t.Helper()
	var params map[string]any
	if err := json.Unmarshal(b, &params); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	delete(params, "_meta")
	out, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// nodeClient is a client of the nodes, of v2 (conn) or v1 (conn1): it
// records each session update it gets (as JSON) and which node served
// each HTTP response.
type nodeClient struct {
	t     *testing.T
	conn  *acpv2.ClientSideConnection
	conn1 *acpv1.ClientSideConnection
	tr    *acphttp.Transport

	updates chan string          // each update as it comes
	rebuilt chan acphttp.Rebuilt // the sessions the transport took back
	// hold, while set, leaves permission requests pending (after a send
	// on asked) until the client closes; otherwise they are allowed.
	hold  atomic.Bool
	asked chan struct{}
	done  chan struct{}

	mu     sync.Mutex
	served []string // X-Served-By of each response, in order
}

// dialNode connects a v2 client to the ACP endpoint u, with a transport
// that reconnects (and takes its sessions back on a new connection when
// it must) if reconnect is set.
func dialNode(t *testing.T, ctx context.Context, u string, reconnect bool) *nodeClient {
	return dialNodeVersion(t, ctx, u, reconnect, 2)
}

// dialNodeVersion is dialNode for a client of protocol version v.
func dialNodeVersion(t *testing.T, ctx context.Context, u string, reconnect bool, v int) *nodeClient {
	t.Helper()
	c := &nodeClient{t: t, updates: make(chan string, 1000), rebuilt: make(chan acphttp.Rebuilt, 10),
		asked: make(chan struct{}, 1), done: make(chan struct{})}
	opts := &acphttp.ClientOptions{HTTPClient: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err == nil && resp.Header.Get("X-Served-By") != "" {
			c.mu.Lock()
			c.served = append(c.served, resp.Header.Get("X-Served-By"))
			c.mu.Unlock()
		}
		return resp, err
	})}}
	if reconnect {
		opts.Reconnect = &acphttp.Reconnect{MaxDelay: 500 * time.Millisecond, OnRebuilt: func(r acphttp.Rebuilt) { c.rebuilt <- r }}
	}
	tr, err := acphttp.Dial(ctx, u, opts)
	if err != nil {
		t.Fatalf("dial %s: %v", u, err)
	}
	c.tr = tr
	var once sync.Once
	t.Cleanup(func() {
		once.Do(func() {
			close(c.done)
			tr.Close()
		})
	})
	if v == 1 {
		c.conn1 = acpv1.NewClientSideConnection(nodeClientV1{c}, tr, tr)
		_, err = c.conn1.Initialize(ctx, acpv1.NewInitializeRequest(1))
	} else {
		c.conn = acpv2.NewClientSideConnection(c, tr, tr)
		_, err = c.conn.Initialize(ctx, acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "nodes", Version: "1"}))
	}
	if err != nil {
		t.Fatalf("initialize through %s: %v", u, err)
	}
	return c
}

// nodeClientV1 is the v1 client of a nodeClient.
type nodeClientV1 struct{ c *nodeClient }

func (v nodeClientV1) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	b, err := json.Marshal(n)
	if err != nil {
		v.c.t.Errorf("encoding %v: %v", n, err)
	}
	v.c.updates <- normal(v.c.t, b)
	return nil
}

func (v nodeClientV1) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	if !v.c.hold.Load() {
		return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeSelected("allow")), nil
	}
	v.c.asked <- struct{}{}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-v.c.done:
		return nil, acphttp.ErrClosed
	}
}

// prompt1 runs a v1 prompt of one text block in session id.
func (c *nodeClient) prompt1(ctx context.Context, id acpv1.SessionID, text string) (*acpv1.PromptResponse, error) {
	return c.conn1.Prompt(ctx, acpv1.NewPromptRequest(id, []acpv1.ContentBlock{acpv1.NewContentBlockText(text)}))
}

// take returns the next n updates the client gets.
func (c *nodeClient) take(ctx context.Context, n int) []string {
	c.t.Helper()
	var got []string
	for len(got) < n {
		select {
		case u := <-c.updates:
			got = append(got, u)
		case <-ctx.Done():
			c.t.Fatalf("got %d updates, want %d: %q", len(got), n, got)
		}
	}
	return got
}

// lastServed returns the node that served the client's last response.
func (c *nodeClient) lastServed() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.served) == 0 {
		return ""
	}
	return c.served[len(c.served)-1]
}

// servedAll returns the nodes that served the client's responses so far.
func (c *nodeClient) servedAll() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.served)
}

func (c *nodeClient) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	b, err := json.Marshal(n)
	if err != nil {
		c.t.Errorf("encoding %v: %v", n, err)
	}
	c.updates <- normal(c.t, b)
	return nil
}

func (c *nodeClient) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	if !c.hold.Load() {
		return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeSelected("allow")), nil
	}
	c.asked <- struct{}{}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, acphttp.ErrClosed
	}
}

// prompt sends a prompt of one text block in session id.
func (c *nodeClient) prompt(ctx context.Context, id acpv2.SessionID, text string) error {
	_, err := c.conn.Prompt(ctx, acpv2.NewPromptRequest(id, []acpv2.ContentBlock{acpv2.NewContentBlockText(text)}))
	return err
}

// untilIdle returns the updates the client gets up to the first idle
// state_update, that one last.
func (c *nodeClient) untilIdle(ctx context.Context) []string {
	c.t.Helper()
	var got []string
	for {
		select {
		case u := <-c.updates:
			got = append(got, u)
			if strings.Contains(u, `"sessionUpdate":"state_update","state":"idle"`) {
				return got
			}
		case <-ctx.Done():
			c.t.Fatalf("no idle state_update; got %q", got)
		}
	}
}

// history returns the updates of got that a session's history keeps:
// all but its state_updates, which a resume sends afresh.
func history(got []string) []string {
	var h []string
	for _, u := range got {
		if !strings.Contains(u, `"sessionUpdate":"state_update"`) {
			h = append(h, u)
		}
	}
	return h
}
