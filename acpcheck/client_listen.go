package acpcheck

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"time"

	"github.com/acpgen/acpgen/acphttp"
)

// ListenClient checks a remote client: it serves an ACP endpoint at /acp on
// l, over Streamable HTTP and WebSocket (acphttp's server), plays the
// scripted agent of CheckClient against the first client that connects, and
// returns the verdicts once that connection has ended. Other connections
// are refused. It returns nil if ctx ends before a client connected.
func ListenClient(ctx context.Context, l net.Listener, opts ClientOptions) *Report {
	reports := make(chan *Report, 1)
	taken := make(chan struct{}, 1)
	taken <- struct{}{}
	acp := acphttp.NewServer(func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		select {
		case <-taken:
		default:
			return nil, errors.New("acpcheck checks one client at a time")
		}
		done := make(clientDone)
		go func() {
			defer close(done)
			rep := CheckClient(ctx, out, in, opts)
			rep.Target = "the client at " + r.RemoteAddr
			reports <- rep
		}()
		return done, nil
	}, &acphttp.Options{ErrorLog: log.New(io.Discard, "", 0)})
	mux := http.NewServeMux()
	mux.Handle("/acp", acp)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }()
	var rep *Report
	select {
	case rep = <-reports:
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = acp.Shutdown(stop)
	_ = srv.Shutdown(stop)
	return rep
}

// clientDone is closed when the check of a remote client has ended.
type clientDone chan struct{}

func (c clientDone) Done() <-chan struct{} { return c }
