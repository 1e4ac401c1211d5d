// Command acpcheck checks that an ACP agent, client or remote endpoint
// speaks the protocol right, and exits 0 only when every MUST holds.
//
//	acpcheck agent [flags] -- CMD ARGS…   check an agent run as a command (stdio)
//	acpcheck agent [flags] URL            check an agent served over HTTP or WebSocket
//	acpcheck remote [flags] URL           check the transport of a remote endpoint
//	acpcheck client [flags]               be the agent a client under test launches
//	acpcheck client -listen ADDR [flags]  be an agent a remote client connects to
//
// See docs/acpcheck.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/acpgen/acpgen/acpcheck"
)

func main() {
	code, err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "acpcheck:", err)
	}
	os.Exit(code)
}

const usage = `usage:
  acpcheck agent [flags] -- CMD ARGS…   check an agent run as a command (stdio)
  acpcheck agent [flags] URL            check an agent served over HTTP or WebSocket
  acpcheck remote [flags] URL           check the transport of a remote endpoint
  acpcheck client [flags]               be the agent a client under test launches
  acpcheck client -listen ADDR [flags]  be an agent a remote client connects to
flags:`

// run runs one mode and returns the exit code: 0 when every MUST holds,
// 1 when one does not, 2 for a usage error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 {
		args = []string{""}
	}
	mode := args[0]
	fs := flag.NewFlagSet("acpcheck "+mode, flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.String("json", "", "write the JSON report to `FILE`")
	junitOut := fs.String("junit", "", "write a JUnit XML report to `FILE`")
	noPrompt := fs.Bool("no-prompt", false, "send no session/prompt (for agents whose prompts reach a model)")
	versions := fs.String("versions", "1,2", "protocol `versions` to check, comma-separated")
	timeout := fs.Duration("timeout", 3*time.Second, "how long to wait for each answer")
	sandbox := fs.Bool("sandbox", false, "agent mode: run the command with no network (Linux: unshare -rn), an empty environment but PATH and a temporary HOME")
	noBodyLimit := fs.Bool("no-body-limit", false, "remote mode: do not send the 17 MiB body")
	noSlowReader := fs.Bool("no-slow-reader", false, "remote mode: do not stall a stream with a flood of session/new")
	keepAlive := fs.Duration("keepalive", 15*time.Second, "remote mode: the keep-alive interval expected of a resumable endpoint's idle streams")
	noKeepAlive := fs.Bool("no-keepalive", false, "remote mode: do not wait for a keep-alive on an idle stream")
	listen := fs.String("listen", "", "client mode: check a remote client, serving http://`ADDR`/acp (Streamable HTTP and WebSocket) instead of stdio")
	reportOut := fs.String("report", "", "client mode: write the text report to `FILE` (default stderr)")
	fs.Usage = func() { fmt.Fprintln(fs.Output(), usage); fs.PrintDefaults() }
	switch mode {
	case "-h", "-help", "--help", "help":
		fs.SetOutput(stdout)
		fs.Usage()
		return 0, nil
	case "agent", "remote", "client":
	default:
		fs.Usage()
		return 2, nil
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, nil
		}
		return 2, nil
	}
	vs, err := parseVersions(*versions)
	if err != nil {
		return 2, err
	}
	ctx, stop := signal.NotifyContext(context.Background(), endSignals...)
	defer stop()
	var rep *acpcheck.Report
	text := stdout
	switch mode {
	case "agent":
		target, err := agentTarget(fs.Args())
		if err != nil {
			return 2, err
		}
		if c, ok := target.(*acpcheck.CommandTarget); ok && *sandbox {
			root, err := sandboxed(c)
			if err != nil {
				return 2, err
			}
			defer os.RemoveAll(root)
		}
		rep = acpcheck.CheckAgent(ctx, target, acpcheck.AgentOptions{Versions: vs, NoPrompt: *noPrompt, Timeout: *timeout})
	case "remote":
		if fs.NArg() != 1 {
			return 2, errors.New("remote takes one URL")
		}
		rep = acpcheck.CheckRemote(ctx, fs.Arg(0), acpcheck.RemoteOptions{Versions: vs, Timeout: *timeout, NoBodyLimit: *noBodyLimit, NoSlowReader: *noSlowReader,
			KeepAlive: *keepAlive, NoKeepAlive: *noKeepAlive})
	case "client":
		var code int
		var err error
		rep, text, code, err = runClient(ctx, *listen, *reportOut, *timeout, stdin, stdout, stderr)
		if rep == nil {
			return code, err
		}
		if f, ok := text.(io.Closer); ok && *reportOut != "" {
			defer f.Close()
		}
	}
	fmt.Fprint(text, rep.Text())
	if err := writeFile(*jsonOut, rep.WriteJSON); err != nil {
		return 2, err
	}
	if err := writeFile(*junitOut, rep.WriteJUnit); err != nil {
		return 2, err
	}
	if !rep.OK() {
		return 1, nil
	}
	return 0, nil
}

// agentTarget reads the agent to check from the arguments after the flags.
func agentTarget(args []string) (acpcheck.Target, error) {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return nil, errors.New("agent needs a command after -- or a URL")
	}
	if len(args) == 1 && strings.Contains(args[0], "://") {
		return &acpcheck.URLTarget{URL: args[0]}, nil
	}
	return acpcheck.Command(args[0], args[1:]...), nil
}

func parseVersions(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("-versions: %q is not a protocol version", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// writeFile writes a report to a file, when a name is given.
func writeFile(name string, write func(io.Writer) error) error {
	if name == "" {
		return nil
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// runClient runs client mode: on stdin and stdout, or listening at addr.
// It returns the report and where its text goes.
func runClient(ctx context.Context, addr, reportOut string, timeout time.Duration, stdin io.Reader, stdout, stderr io.Writer) (*acpcheck.Report, io.Writer, int, error) {
	text := stderr // stdout carries the protocol
	if addr != "" {
		text = stdout
	}
	if reportOut != "" {
		f, err := os.Create(reportOut)
		if err != nil {
			return nil, nil, 2, err
		}
		text = f
	}
	opts := acpcheck.ClientOptions{Timeout: timeout}
	if addr == "" {
		survivePipes()
		return acpcheck.CheckClient(ctx, stdout, stdin, opts), text, 0, nil
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, 2, err
	}
	fmt.Fprintf(stderr, "acpcheck: waiting for a client at http://%s/acp\n", l.Addr())
	rep := acpcheck.ListenClient(ctx, l, opts)
	if rep == nil {
		return nil, nil, 2, errors.New("no client connected")
	}
	return rep, text, 0, nil
}
