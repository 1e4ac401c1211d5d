package e2e

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// balancer is HAProxy in front of two agents, with cookie-based stickiness:
// the first response of a client carries a cookie SRV naming the backend
// ("a" or "b") that served it, and every request that returns it goes to the
// same backend. Clients without the cookie are balanced round robin.
type balancer struct {
	URL      string             // http://127.0.0.1:PORT/acp
	backends map[string]*server // by cookie value
}

// haproxyConfig is the configuration startBalancer writes: loopback only,
// every timeout bounded; backends checked every 100ms, so that a stopped one
// is taken out within 200ms (two failed checks, so that one check slowed
// down by a loaded machine does not take out a running one); a request that
// cannot reach its backend retried after 250ms (the connect timeout, plenty
// on loopback, rather than a second) and then dispatched to the other; and
// each event of a stream sent on as it comes (without http-no-delay,
// HAProxy holds small writes back for up to 200ms, hoping for more).
const haproxyConfig = `global
	maxconn 4096
defaults
	mode http
	timeout connect 250ms
	timeout client 60s
	timeout server 60s
	timeout tunnel 60s
	option redispatch
	option http-no-delay
	retries 2
frontend acp
	bind 127.0.0.1:%d
	default_backend agents
backend agents
	balance roundrobin
	cookie SRV insert indirect nocache
	http-response set-header X-Served-By %%[srv_name]
	server a %s check inter 100ms fall 2 rise 1 cookie a
	server b %s check inter 100ms fall 2 rise 1 cookie b
`

// requireHAProxy returns the path of haproxy, skipping the test where it
// is not installed.
func requireHAProxy(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		t.Skip("haproxy is not installed: the load-balancer test needs Debian's haproxy (make test installs it as root)")
	}
	return bin
}

// startBalancer starts HAProxy in front of the agents a and b; every
// response says which served it in a header X-Served-By ("a" or "b"). The
// test's cleanup stops it.
func startBalancer(t *testing.T, a, b *server) *balancer {
	t.Helper()
	bin := requireHAProxy(t)
	port := freePort(t)
	cfg := filepath.Join(t.TempDir(), "haproxy.cfg")
	text := fmt.Sprintf(haproxyConfig, port, hostPort(t, a.URL), hostPort(t, b.URL))
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	check := exec.Command(bin, "-c", "-q", "-f", cfg)
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("haproxy -c: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-db", "-f", cfg) // in the foreground
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		select {
		case <-exited:
			t.Fatalf("haproxy exited:\n%s", out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("haproxy does not accept connections on %s after 10s:\n%s", addr, out.String())
		}
	}
	return &balancer{URL: "http://" + addr + "/acp", backends: map[string]*server{"a": a, "b": b}}
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// hostPort returns the HOST:PORT of a URL.
func hostPort(t *testing.T, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Host
}

// wsURL returns the ws:// URL of an http:// one.
func wsURL(u string) string { return "ws" + strings.TrimPrefix(u, "http") }
