package acpconductor

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/acpgen/acpgen/acphttp"
)

// EnvWireLog names the file of the wire log when -wire-log is not given,
// as it does for the generated connections; "-" is the standard error.
const EnvWireLog = "ACP_WIRE_LOG"

const usage = `usage: acpconductor [-wire-log FILE] [-listen ADDR] agent CMD... AGENT
       acpconductor [-wire-log FILE] proxy CMD...

Each CMD is one argument, a command line split into words as a shell
would (quotes and backslashes; nothing is expanded and no shell runs).
"agent" presents the chain as one agent, on stdin and stdout or with
-listen at http://ADDR/acp; "proxy" runs the chain as a proxy in the
chain of another conductor.

       acpconductor mcp-stdio URL

serves, on stdin and stdout, a bridged MCP server to an agent that takes
stdio MCP servers only: the conductor's bridge gives the agent this
command line.
`

// Main runs the command line args (without the program's name) of the
// program acpconductor, with the standard streams given, until the peer
// upstream ends or ctx ends, and returns its exit status: 0, 1 when the
// chain failed (a component ended), 2 for a bad command line.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("acpconductor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	wirePath := fs.String("wire-log", "", "append every message of every hop to `FILE` as JSON lines (default: $"+EnvWireLog+")")
	listen := fs.String("listen", "", "serve the chain at http://`ADDR`/acp over Streamable HTTP and WebSocket, a chain for each client, instead of on stdin and stdout")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	mode := fs.Arg(0)
	if mode == "mcp-stdio" {
		return mcpStdio(ctx, fs.Args()[1:], stdin, stdout, stderr)
	}
	if err := fs.Parse(fs.Args()[1:]); err != nil {
		return 2
	}
	components, err := commands(mode, fs.Args())
	if err == nil && mode == "proxy" && *listen != "" {
		err = errors.New("-listen is for the agent mode: a proxy talks to its conductor on stdin and stdout")
	}
	if err != nil {
		fmt.Fprintln(stderr, "acpconductor:", err)
		return 2
	}
	opts := &Options{Proxy: mode == "proxy", Stderr: stderr}
	if exe, err := os.Executable(); err == nil {
		opts.MCPStdioCommand = []string{exe, "mcp-stdio"}
	}
	if *wirePath == "" {
		*wirePath = os.Getenv(EnvWireLog)
	}
	if *wirePath != "" {
		w, closeLog, err := openLog(*wirePath, stderr)
		if err != nil {
			fmt.Fprintln(stderr, "acpconductor: wire log:", err)
			return 2
		}
		defer closeLog()
		opts.WireLog = w
	}
	if *listen != "" {
		err = serveHTTP(ctx, *listen, components, opts, stderr)
	} else {
		err = Run(ctx, components, stdin, stdout, opts)
	}
	if err != nil {
		fmt.Fprintln(stderr, "acpconductor:", err)
		return 1
	}
	return 0
}

// commands splits the components' command lines.
func commands(mode string, lines []string) ([][]string, error) {
	switch mode {
	case "agent", "proxy":
	default:
		return nil, fmt.Errorf("unknown mode %q: want agent or proxy", mode)
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("%s: no component: give each component's command as one argument", mode)
	}
	var out [][]string
	for i, line := range lines {
		words, err := Split(line)
		if err != nil {
			return nil, fmt.Errorf("component %d: %w", i+1, err)
		}
		if len(words) == 0 {
			return nil, fmt.Errorf("component %d: %w", i+1, errEmpty)
		}
		out = append(out, words)
	}
	return out, nil
}

func openLog(path string, stderr io.Writer) (io.Writer, func(), error) {
	if path == "-" {
		return stderr, func() {}, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// serveHTTP serves the chain at http://addr/acp, a chain of its own for
// each client's connection, until ctx ends. Once it accepts connections it
// prints "listening on http://HOST:PORT/acp" to stderr.
func serveHTTP(ctx context.Context, addr string, components [][]string, opts *Options, stderr io.Writer) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	acp := acphttp.NewServer(func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		c := &httpChain{done: make(chan struct{})}
		go func() {
			defer close(c.done)
			if err := Run(r.Context(), components, in, out, opts); err != nil && r.Context().Err() == nil {
				fmt.Fprintln(stderr, "acpconductor:", err)
			}
		}()
		return c, nil
	}, nil)
	mux := http.NewServeMux()
	mux.Handle("/acp", acp)
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true)
	srv := &http.Server{Handler: mux, Protocols: &protocols, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	fmt.Fprintf(stderr, "listening on http://%s/acp\n", l.Addr())
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = errors.Join(acp.Shutdown(sctx), srv.Shutdown(sctx))
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	return err
}

// httpChain is the chain of one client's connection.
type httpChain struct{ done chan struct{} }

func (c *httpChain) Done() <-chan struct{} { return c.done }
