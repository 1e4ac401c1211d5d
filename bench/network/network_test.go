package network

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// The network benchmarks: netConns ACP connections to one agent process over
// loopback, each with a session, first idle (the agent's memory per
// connection) and then all prompting at once, the agent answering each
// prompt with netChunks session updates (notifications per second in total,
// and the p99 of a prompt round trip under that load). The agent is acpgen's
// (bench/netagent, on acphttp) or the TypeScript SDK's AcpServer
// (interop/bench_agent.mjs), over WebSocket or Streamable HTTP; the clients
// are acpgen's, in this process, for both.
var (
	netConns   = flag.Int("netconns", 1000, "ACP connections each network benchmark holds open")
	netProfile = flag.String("netprofile", "", "write a CPU profile of the acpgen agent to `FILE`")
	netMem     = flag.String("netmemprofile", "", "write heap and goroutine profiles of the acpgen agent, at each memory reading, to `PREFIX`.N.heap and .goroutine")
	netChunks  = flag.Int("netchunks", 20, "session updates the agent sends for each prompt in the network benchmarks")
	netBase    = flag.String("netbase", "", "also run the acpgen contenders with the netagent binary `FILE` (one built from an earlier revision), as acpgen-base and acpgen-resumable-base, each before its own")
)

// netTimeout bounds each step of a network benchmark: connecting every
// client, and each round of prompts.
const netTimeout = 2 * time.Minute

// TestMain removes the netagent binary that the benchmarks built, with
// its directory.
func TestMain(m *testing.M) {
	code := m.Run()
	if netagentBin != "" {
		os.RemoveAll(filepath.Dir(netagentBin))
	}
	os.Exit(code)
}

// BenchmarkNetwork runs the benchmark of each profile against acpgen's
// agent, acpgen's with resumable streams (the default retention), the
// TypeScript SDK's, and, over Streamable HTTP, the floor: the same event
// bytes written by a bare net/http SSE handler with no ACP (netagent
// -floor), what the machine allows.
func BenchmarkNetwork(b *testing.B) {
	for _, profile := range []string{"ws", "http"} {
		agents := []string{"acpgen", "acpgen-resumable", "ts"}
		if *netBase != "" {
			agents = []string{"acpgen-base", "acpgen", "acpgen-resumable-base", "acpgen-resumable", "ts"}
		}
		if profile == "http" {
			agents = append(agents, "floor")
		}
		for _, agent := range agents {
			b.Run(profile+"/"+agent, func(b *testing.B) {
				p := startAgent(b, agent)
				benchNetwork(b, p, profile)
			})
		}
	}
}

// benchNetwork connects the clients to the agent p over profile ("ws" or
// "http"), measures the agent's memory per idle connection, and then makes
// b.N rounds in which every client sends one prompt.
func benchNetwork(b *testing.B, p *agentProcess, profile string) {
	url := p.url
	if profile == "ws" {
		url = "ws" + strings.TrimPrefix(url, "http")
	}
	before := p.rss(b)
	dial := connect
	if p.floor {
		dial = connectFloor
	}
	clients := connectAll(b, url, *netConns, dial)
	idle := p.rss(b) - before

	var latencies []time.Duration
	var mu sync.Mutex
	cpuBefore, selfBefore, writesBefore := p.cpu(b), selfCPU(), p.writes()
	start := time.Now()
	b.ResetTimer()
	for range b.N {
		ctx, cancel := context.WithTimeout(context.Background(), netTimeout)
		var wg sync.WaitGroup
		for _, c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d, err := c.prompt(ctx, *netChunks)
				if err != nil {
					b.Error(err)
					return
				}
				mu.Lock()
				latencies = append(latencies, d)
				mu.Unlock()
			}()
		}
		wg.Wait()
		cancel()
		if b.Failed() {
			b.FailNow()
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()
	cpu, self, writes := p.cpu(b)-cpuBefore, selfCPU()-selfBefore, p.writes()-writesBefore
	var received int64
	for _, c := range clients {
		received += c.received()
	}
	if want := int64(b.N) * int64(len(clients)) * int64(*netChunks); received != want {
		b.Fatalf("the clients received %d session updates, want %d", received, want)
	}
	// After the timer: ResetTimer deletes the metrics reported before it.
	b.ReportMetric(float64(idle)/float64(len(clients)), "idle-B/conn")
	b.ReportMetric(float64(received)/elapsed.Seconds(), "notifs/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(received), "agent-cpu-us/notif")
	b.ReportMetric(float64(self.Microseconds())/float64(received), "client-cpu-us/notif")
	if writes >= 0 {
		b.ReportMetric(float64(writes)/float64(received), "agent-writes/notif")
	}
	slices.Sort(latencies)
	p99 := latencies[int(math.Ceil(0.99*float64(len(latencies))))-1]
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
}

// netClient is one client connection with its session.
type netClient struct {
	conn    *acpv1.ClientSideConnection
	closer  func() error
	session acpv1.SessionID
	updates atomic.Int64 // session updates received
}

func (c *netClient) received() int64 { return c.updates.Load() }

func (c *netClient) close() error { return c.closer() }

// benchClient is one client of a benchmark.
type benchClient interface {
	// prompt asks for n session updates and returns the round trip's
	// duration.
	prompt(ctx context.Context, n int) (time.Duration, error)
	// received returns the session updates received so far.
	received() int64
	// close ends the client.
	close() error
}

// connectAll connects n clients to the agent at url with dial, a few at a
// time, and closes them when the benchmark ends.
func connectAll(b *testing.B, url string, n int, dial func(context.Context, string) (benchClient, error)) []benchClient {
	ctx, cancel := context.WithTimeout(context.Background(), netTimeout)
	defer cancel()
	clients := make([]benchClient, n)
	errs := make(chan error, n)
	sem := make(chan struct{}, 32)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c, err := dial(ctx, url)
			if err != nil {
				errs <- fmt.Errorf("client %d: %w", i, err)
				return
			}
			clients[i] = c
		}()
	}
	wg.Wait()
	b.Cleanup(func() {
		for _, c := range clients {
			if c != nil {
				c.close()
			}
		}
	})
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	return clients
}

// httpClient is the HTTP client of every client connection: all go to one
// host, each holding two event streams open and posting its messages.
var httpClient = &http.Client{Transport: &http.Transport{
	MaxIdleConns:        0, // no limit
	MaxIdleConnsPerHost: 4096,
	IdleConnTimeout:     time.Minute,
}}

// connect dials the agent at url and opens a session.
func connect(ctx context.Context, url string) (benchClient, error) {
	c := &netClient{}
	t, err := acphttp.Dial(ctx, url, &acphttp.ClientOptions{HTTPClient: httpClient})
	if err != nil {
		return nil, err
	}
	acpv1.NewClientSideConnectionFunc(func(conn *acpv1.ClientSideConnection) acpv1.Client {
		c.conn = conn
		return c
	}, t, t)
	c.closer = t.Close
	if _, err := c.conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	s, err := c.conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		t.Close()
		return nil, fmt.Errorf("session/new: %w", err)
	}
	c.session = s.SessionID
	return c, nil
}

// prompt asks for n session updates and returns the round trip's duration.
func (c *netClient) prompt(ctx context.Context, n int) (time.Duration, error) {
	start := time.Now()
	_, err := c.conn.Prompt(ctx, acpv1.NewPromptRequest(c.session,
		[]acpv1.ContentBlock{acpv1.NewContentBlockText(strconv.Itoa(n))}))
	return time.Since(start), err
}

// SessionUpdate counts the update.
func (c *netClient) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	c.updates.Add(1)
	return nil
}

// RequestPermission is never called by the benchmark agents.
func (c *netClient) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return nil, acpv1.NewMethodNotFoundError(acpv1.MethodRequestPermission)
}

// agentProcess is a benchmark agent serving at url.
type agentProcess struct {
	url   string
	cmd   *exec.Cmd
	floor bool // it serves the floor, not ACP
}

var (
	netagentOnce sync.Once
	netagentBin  string
	netagentErr  error
)

// startAgent starts the agent named ("acpgen" or "ts") on a free loopback
// port and stops it when the benchmark ends. Without node, the TypeScript
// agent's benchmarks skip.
func startAgent(b *testing.B, name string) *agentProcess {
	var cmd *exec.Cmd
	switch name {
	case "acpgen", "acpgen-resumable", "floor", "acpgen-base", "acpgen-resumable-base":
		netagentOnce.Do(func() {
			dir, err := os.MkdirTemp("", "acpgen-bench")
			if err != nil {
				netagentErr = err
				return
			}
			netagentBin = filepath.Join(dir, "netagent")
			if out, err := exec.Command("go", "build", "-o", netagentBin, "./netagent").CombinedOutput(); err != nil {
				netagentErr = fmt.Errorf("building netagent: %v\n%s", err, out)
			}
		})
		if netagentErr != nil {
			b.Fatal(netagentErr)
		}
		bin := netagentBin
		if base, ok := strings.CutSuffix(name, "-base"); ok {
			bin, name = *netBase, base
		}
		cmd = exec.Command(bin, "-listen", "127.0.0.1:0")
		switch name {
		case "acpgen-resumable":
			cmd.Args = append(cmd.Args, "-resumable")
		case "floor":
			cmd.Args = append(cmd.Args, "-floor")
		}
		if *netProfile != "" {
			cmd.Args = append(cmd.Args, "-cpuprofile", *netProfile)
		}
		if *netMem != "" {
			cmd.Args = append(cmd.Args, "-memprofile", *netMem)
		}
	case "ts":
		node, err := exec.LookPath("node")
		if err != nil {
			b.Skip("node is not installed: the TypeScript agent's benchmarks need node and npm (then `make interop`)")
		}
		cmd = exec.Command(node, "--expose-gc", filepath.Join("..", "..", "interop", "bench_agent.mjs"))
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() {
			cmd.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	line, err := bufio.NewReader(stderr).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if !ok {
		b.Fatalf("%s agent printed %q (%v), want \"listening on URL\"", name, line, err)
	}
	go io.Copy(io.Discard, stderr) // until it exits, so that it never blocks writing
	return &agentProcess{url: url, cmd: cmd, floor: name == "floor"}
}

// selfCPU returns the CPU time this process, the clients', has used so
// far, user and system.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpu returns the CPU time the process has used so far, user and system,
// as /proc counts it (in clock ticks of 10ms).
func (p *agentProcess) cpu(b *testing.B) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		b.Skipf("the CPU time of a process is read from /proc, which %s does not have: %v", runtime.GOOS, err)
	}
	// The fields after the command name, which is in parentheses: utime
	// and stime are the 12th and 13th.
	_, rest, _ := strings.Cut(string(data), ") ")
	fields := strings.Fields(rest)
	if len(fields) < 13 {
		b.Fatalf("/proc stat %q", data)
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			b.Fatalf("/proc stat %q: %v", data, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}

// writes returns the system calls that wrote the process has made so far
// (syscw of /proc's io), each write(2) to a socket among them, or -1 where
// /proc does not count them.
func (p *agentProcess) writes() int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", p.cmd.Process.Pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "syscw:"); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(rest), 10, 64); err == nil {
				return n
			}
		}
	}
	return -1
}

// rss returns the resident memory of the process, in bytes, once its
// connections have been idle for a second (long enough for what an agent
// lets go of while idle, such as acpgen's lingering request workers, to
// go) and it has then collected its garbage.
func (p *agentProcess) rss(b *testing.B) int64 {
	time.Sleep(time.Second)
	if err := p.cmd.Process.Signal(syscall.SIGUSR2); err != nil {
		b.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		b.Skipf("the memory of a process is read from /proc, which %s does not have: %v", runtime.GOOS, err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				b.Fatalf("VmRSS %q: %v", rest, err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmRSS in /proc status")
	return 0
}
