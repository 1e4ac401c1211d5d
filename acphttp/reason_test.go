package acphttp_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// errStreamBroke is how the connection's stream of a breakingTransport
// fails.
var errStreamBroke = errors.New("the test broke the stream")

// breakingTransport sends requests with base, except a session/prompt
// POST, which stays under way until its request is cancelled, and
// breaks the connection's SSE stream once broken ends.
type breakingTransport struct {
	base   http.RoundTripper
	broken context.Context
	posted chan struct{} // receives when the prompt's POST is under way
}

func (b *breakingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && r.Body != nil {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		if bytes.Contains(body, []byte(`"session/prompt"`)) {
			b.posted <- struct{}{}
			<-r.Context().Done()
			return nil, r.Context().Err()
		}
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := b.base.RoundTrip(r)
	if err != nil || r.Method != http.MethodGet || r.Header.Get(acphttp.HeaderSessionID) != "" {
		return resp, err
	}
	body := resp.Body
	stop := context.AfterFunc(b.broken, func() { body.Close() })
	resp.Body = &breakingBody{ReadCloser: body, broken: b.broken, stop: stop}
	return resp, nil
}

// breakingBody is the body of a stream that fails with errStreamBroke
// once broken ends.
type breakingBody struct {
	io.ReadCloser
	broken context.Context
	stop   func() bool
}

func (b *breakingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && b.broken.Err() != nil {
		return n, errStreamBroke
	}
	return n, err
}

func (b *breakingBody) Close() error {
	b.stop()
	return b.ReadCloser.Close()
}

// TestPendingCallFailsWithReason checks that a call whose POST is under way
// when the transport fails ends with the transport's reason, the error of
// the connection's stream, and not with the cancellation of its POST.
func TestPendingCallFailsWithReason(t *testing.T) {
	_, url := serve(t, nil)
	for range 20 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		broken, breakNow := context.WithCancel(context.Background())
		base := &http.Transport{}
		bt := &breakingTransport{base: base, broken: broken, posted: make(chan struct{}, 1)}
		done, _, tr := dialPrompt(t, ctx, url, &acphttp.ClientOptions{HTTPClient: &http.Client{Transport: bt}})
		<-bt.posted
		breakNow()
		err := <-done
		if !errors.Is(err, acpv1.ErrConnectionClosed) || !strings.Contains(err.Error(), errStreamBroke.Error()) || strings.Contains(err.Error(), "context canceled") {
			t.Fatalf("the pending prompt: %v, want ErrConnectionClosed with %q", err, errStreamBroke)
		}
		tr.Close()
		base.CloseIdleConnections()
		cancel()
	}
}
