// Command netagent is the acpgen side of the network benchmarks: an ACP v1
// agent served over Streamable HTTP and WebSocket at http://ADDR/acp, that
// answers a prompt whose first text block is a number N with N agent
// message chunks before it ends the turn.
//
//	netagent -listen 127.0.0.1:0
//
// It prints "listening on http://HOST:PORT/acp" to stderr once it accepts
// connections, collects its garbage and returns the freed memory to the
// system on SIGUSR2 (before the benchmark reads its resident memory, as the
// TypeScript agent does), and stops on SIGINT or SIGTERM. With -memprofile
// PREFIX, each SIGUSR2 also writes a heap profile to PREFIX.N.heap, a
// goroutine profile to PREFIX.N.goroutine, and the runtime's memory
// statistics to PREFIX.N.memstats, N counting from 1; every allocation is
// then sampled, which makes the process larger.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

func main() {
	addr := flag.String("listen", "127.0.0.1:0", "the address to serve at")
	flag.BoolVar(&resumable, "resumable", false, "serve with resumable streams (acphttp.Options.Resumable, the default retention)")
	flag.BoolVar(&floor, "floor", false, "serve no ACP: a bare net/http SSE handler that writes a prompt's events (see floor.go)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to `FILE`")
	flag.StringVar(&memProfile, "memprofile", "", "on each SIGUSR2, write heap and goroutine profiles and memory statistics to `PREFIX`.N.heap, .goroutine and .memstats")
	flag.Parse()
	if memProfile != "" {
		runtime.MemProfileRate = 1 // every allocation, for exact profiles
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "netagent:", err)
			os.Exit(1)
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	if err := serve(*addr); err != nil {
		fmt.Fprintln(os.Stderr, "netagent:", err)
		os.Exit(1) // without the profile, which only a clean stop writes
	}
}

// serve serves the benchmark agent at http://addr/acp until SIGINT or
// SIGTERM.
func serve(addr string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	var opts acphttp.Options
	if resumable {
		opts.Resumable = &acphttp.Resumable{}
	}
	acp := acphttp.NewServer(func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		return acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
			return &agent{conn: c}
		}, out, in), nil
	}, &opts)
	mux := http.NewServeMux()
	if floor {
		mux.Handle("/acp", newFloor())
	} else {
		mux.Handle("/acp", acp)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	collect := make(chan os.Signal, 1)
	signal.Notify(collect, syscall.SIGUSR2)
	defer func() {
		signal.Stop(collect)
		close(collect)
	}()
	go func() {
		n := 0
		for range collect {
			debug.FreeOSMemory() // a garbage collection first
			n++
			writeMemProfiles(n)
		}
	}()
	fmt.Fprintf(os.Stderr, "listening on http://%s/acp\n", l.Addr())
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = errors.Join(acp.Shutdown(ctx), srv.Shutdown(ctx))
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	return err
}

// memProfile is the prefix of the files of -memprofile, or "".
var memProfile string

// resumable and floor are the flags of the same names.
var resumable, floor bool

// writeMemProfiles writes the profiles and statistics of the n-th SIGUSR2
// when -memprofile asks for them.
func writeMemProfiles(n int) {
	if memProfile == "" {
		return
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	stats := fmt.Sprintf("heap in use %d B in %d objects, stacks %d B, goroutines %d, runtime's own %d B\n",
		ms.HeapInuse, ms.HeapObjects, ms.StackInuse, runtime.NumGoroutine(), ms.Sys-ms.HeapSys-ms.StackSys)
	err := os.WriteFile(fmt.Sprintf("%s.%d.memstats", memProfile, n), []byte(stats), 0o666)
	for _, name := range []string{"heap", "goroutine"} {
		f, ferr := os.Create(fmt.Sprintf("%s.%d.%s", memProfile, n, name))
		if ferr == nil {
			ferr = errors.Join(pprof.Lookup(name).WriteTo(f, 0), f.Close())
		}
		err = errors.Join(err, ferr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "netagent:", err)
	}
}

// sessions numbers the sessions of every connection.
var sessions atomic.Int64

// agent is the benchmark agent of one ACP connection.
type agent struct {
	conn *acpv1.AgentSideConnection
}

func (a *agent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	r := acpv1.NewInitializeResponse(1)
	r.AuthMethods = []acpv1.AuthMethod{}
	return r, nil
}

func (a *agent) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return acpv1.NewNewSessionResponse(acpv1.SessionID("bench_" + strconv.FormatInt(sessions.Add(1), 10))), nil
}

func (a *agent) Cancel(ctx context.Context, p *acpv1.CancelNotification) error { return nil }

func (a *agent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	n := 0
	for _, block := range p.Prompt {
		if t, ok := block.Value.(*acpv1.ContentBlockText); ok {
			n, _ = strconv.Atoi(t.Text)
			break
		}
	}
	n = min(n, 1_000_000)
	for range n {
		err := a.conn.SessionUpdate(ctx, acpv1.NewSessionNotification(p.SessionID,
			acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText("chunk"))))
		if err != nil {
			return nil, err
		}
	}
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}
