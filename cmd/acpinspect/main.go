// Command acpinspect shows the traffic between an ACP client and an agent
// in a live web page: every message decoded, judged against the schema and
// the protocol's rules, the sessions, the latencies per method.
//
//	acpinspect [flags] -- AGENT ARGS…          a tap: what an editor launches instead of the agent
//	acpinspect [flags] -target URL -listen ADDR  a proxy in front of a remote agent
//	acpinspect [flags] open FILE                 a wire log (ACP_WIRE_LOG) or a capture
//
// The page is served on 127.0.0.1; its URL, with a token of this run, is
// printed to standard error. Build it with -tags unstable so that the
// messages of unstable features decode.
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
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/acpgen/acpgen/acpexec"
	"github.com/acpgen/acpgen/acpinspect"
)

type config struct {
	capture string
	ui      string
	urlFile string
	hold    bool
	target  string
	listen  string
	secrets bool
}

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	var c config
	fl := flag.NewFlagSet("acpinspect", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.StringVar(&c.capture, "capture", "", "record every frame into the new SQLite capture `PATH`")
	fl.StringVar(&c.ui, "ui", "127.0.0.1:0", "serve the page at the loopback `ADDR` (\"\" for none)")
	fl.StringVar(&c.urlFile, "url-file", "", "write the page's URL, token included, to `FILE` once it is served")
	fl.BoolVar(&c.hold, "hold", false, "keep the page up after the agent or the proxy has ended, until interrupted")
	fl.BoolVar(&c.secrets, "show-secrets", false, "show the values of the MCP servers' environment variables and HTTP headers, which the page masks")
	fl.StringVar(&c.target, "target", "", "proxy: the remote agent's `URL` (http:// for Streamable HTTP, ws:// for WebSocket)")
	fl.StringVar(&c.listen, "listen", "", "proxy: serve clients at http://`ADDR`/acp, both profiles")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: acpinspect [flags] -- AGENT ARGS...")
		fmt.Fprintln(stderr, "       acpinspect [flags] -target URL -listen ADDR")
		fmt.Fprintln(stderr, "       acpinspect [flags] open FILE")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	rest := fl.Args()
	switch {
	case c.target != "" || c.listen != "":
		if c.target == "" || c.listen == "" || len(rest) > 0 {
			fl.Usage()
			return 2
		}
		err = proxy(ctx, c, stderr)
	case len(rest) == 2 && rest[0] == "open" && !dashdash(args):
		err = open(ctx, c, rest[1], stderr)
	case len(rest) > 0 && dashdash(args):
		return tap(ctx, c, rest, stderr)
	default:
		fl.Usage()
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "acpinspect:", err)
		return 1
	}
	return 0
}

// dashdash reports whether the arguments hold "--" before the command.
func dashdash(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return true
		}
	}
	return false
}

// inspection is what every mode sets up: the inspector, the capture and
// the page.
type inspection struct {
	in      *acpinspect.Inspector
	capture *acpinspect.Capture
	ui      *acpinspect.UIServer
	rec     acpinspect.Recorder
}

func start(c config, about string, stderr io.Writer) (*inspection, error) {
	s := &inspection{in: acpinspect.NewInspector()}
	recs := acpinspect.Recorders{s.in}
	if c.capture != "" {
		cp, err := acpinspect.CreateCapture(c.capture, about)
		if err != nil {
			return nil, err
		}
		s.capture = cp
		recs = append(recs, cp)
	}
	s.rec = recs
	if c.ui != "" {
		ui, err := acpinspect.ListenUI(c.ui, s.in, acpinspect.UIOptions{About: about, ShowSecrets: c.secrets})
		if err != nil {
			s.close()
			return nil, err
		}
		s.ui = ui
		fmt.Fprintf(stderr, "acpinspect: %s\n", ui.URL)
		if c.urlFile != "" {
			if err := os.WriteFile(c.urlFile, []byte(ui.URL+"\n"), 0o600); err != nil {
				s.close()
				return nil, err
			}
		}
	}
	return s, nil
}

// wait holds the page up until ctx ends, when -hold asks for it.
func (s *inspection) wait(ctx context.Context, hold bool, stderr io.Writer) {
	if hold && s.ui != nil {
		fmt.Fprintf(stderr, "acpinspect: the page stays up at %s until interrupted\n", s.ui.URL)
		<-ctx.Done()
	}
}

func (s *inspection) close() error {
	var err error
	if s.ui != nil {
		err = s.ui.Close()
	}
	if s.capture != nil {
		if cerr := s.capture.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

func tap(ctx context.Context, c config, command []string, stderr io.Writer) int {
	s, err := start(c, strings.Join(command, " "), stderr)
	if err != nil {
		fmt.Fprintln(stderr, "acpinspect:", err)
		return 1
	}
	// The editor closing the tap's input, or a signal (ctx), ends the
	// agent as acpexec closes it.
	err = acpinspect.Tap(ctx, exec.Command(command[0], command[1:]...), acpinspect.TapOptions{Recorder: s.rec, Stderr: stderr})
	code := 0
	var ee *acpexec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
		if code <= 0 {
			code = 1
		}
	case err != nil:
		fmt.Fprintln(stderr, "acpinspect:", err)
		code = 1
	}
	s.wait(ctx, c.hold, stderr)
	if err := s.close(); err != nil {
		fmt.Fprintln(stderr, "acpinspect:", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

func proxy(ctx context.Context, c config, stderr io.Writer) error {
	s, err := start(c, "proxy to "+c.target, stderr)
	if err != nil {
		return err
	}
	p, err := acpinspect.NewProxy(acpinspect.ProxyOptions{Target: c.target, Recorder: s.rec})
	if err != nil {
		s.close()
		return err
	}
	ln, err := net.Listen("tcp", c.listen)
	if err != nil {
		s.close()
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/acp", p)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stderr, "acpinspect: clients connect to http://%s/acp (Streamable HTTP) or ws://%s/acp (WebSocket)\n", ln.Addr(), ln.Addr())
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p.Shutdown(shut)
	srv.Shutdown(shut)
	p.Close()
	if cerr := s.close(); err == nil {
		err = cerr
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

func open(ctx context.Context, c config, path string, stderr io.Writer) error {
	s, err := start(config{ui: c.ui, urlFile: c.urlFile, secrets: c.secrets}, path, stderr)
	if err != nil {
		return err
	}
	defer s.close()
	if acpinspect.IsCapture(path) {
		_, err = acpinspect.ReadCapture(ctx, path, s.rec)
	} else {
		var f *os.File
		if f, err = os.Open(path); err == nil {
			err = acpinspect.ReadWireLog(f, s.rec)
			f.Close()
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "acpinspect: %d messages, %d findings\n", s.in.Len(), len(s.in.Findings()))
	s.wait(ctx, s.ui != nil, stderr)
	return nil
}
