package acphttp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// cancelFirstDelete is a RoundTripper whose first DELETE fails with
// context.Canceled, as net/http fails a request that it handed the
// connection of a request canceled a moment before.
type cancelFirstDelete struct {
	next http.RoundTripper

	mu      sync.Mutex
	deletes int
}

func (c *cancelFirstDelete) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodDelete {
		c.mu.Lock()
		c.deletes++
		first := c.deletes == 1
		c.mu.Unlock()
		if first {
			return nil, context.Canceled
		}
	}
	return c.next.RoundTrip(r)
}

// TestCloseRepeatsCanceledDelete checks that Close of a Streamable HTTP
// client sends its DELETE again when the first fails with a cancellation
// that is not its own, and then reports no error.
func TestCloseRepeatsCanceledDelete(t *testing.T) {
	s := acphttp.NewServer(connectEcho, nil)
	ts := httptest.NewServer(s)
	defer ts.Close()
	defer shutdown(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rt := &cancelFirstDelete{next: ts.Client().Transport}
	tr, err := acphttp.Dial(ctx, ts.URL+"/acp", &acphttp.ClientOptions{HTTPClient: &http.Client{Transport: rt}})
	if err != nil {
		t.Fatal(err)
	}
	promptOnce(t, ctx, acpv1.NewClientSideConnection(&recorder{}, tr, tr))
	if err := tr.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.deletes != 2 {
		t.Errorf("%d DELETE requests, want 2: the canceled one and the one sent again", rt.deletes)
	}
}
