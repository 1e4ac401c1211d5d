package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/acpgen/acpgen/acphttp"
)

// listenAndServe serves the echo agent at http://addr/acp, over Streamable
// HTTP and WebSocket, each client's connection with an agent of its own,
// its streams resumable, until SIGINT or SIGTERM. Once it accepts connections it prints one line,
// "listening on http://HOST:PORT/acp", to stderr (with the port it picked
// for port 0).
func listenAndServe(addr string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	router, err := newRouter()
	if err != nil {
		return err
	}
	// Both protocol versions on the endpoint: Start returns at once and
	// picks the version once the server delivers the client's initialize.
	acp := acphttp.NewServer(func(_ *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		return router.Start(out, in), nil
	}, &acphttp.Options{
		// Streams resume after a drop (the draft RFD "Durable & Resumable
		// HTTP/WS Transport"), with the default retention and grace.
		Resumable: &acphttp.Resumable{},
	})
	mux := http.NewServeMux()
	mux.Handle("/acp", acp)
	var protocols http.Protocols // HTTP/1.1, and HTTP/2 without TLS (h2c)
	protocols.SetHTTP1(true)
	protocols.SetUnencryptedHTTP2(true)
	srv := &http.Server{Handler: mux, Protocols: &protocols, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	fmt.Fprintf(os.Stderr, "listening on http://%s/acp\n", l.Addr())

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// The ACP connections first: their event streams and WebSockets are
	// requests that srv.Shutdown would wait for.
	err = errors.Join(acp.Shutdown(ctx), srv.Shutdown(ctx))
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	return err
}
