package acphttp_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
)

// TestStreamTakenOver checks an SSE stream over HTTP/1.1, served on the
// connection taken over from net/http: a chunked body that says
// Connection: close, another receiver refused 409 while it is open and
// taken once its client has closed it, and a clean end (the last chunk)
// when the connection is deleted.
func TestStreamTakenOver(t *testing.T) {
	_, url := serve(t, nil)
	id := open(t, url)
	first := stream(t, url, acphttp.HeaderConnectionID, id)
	if first.StatusCode != 200 || first.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %s %q", first.Status, first.Header.Get("Content-Type"))
	}
	if len(first.TransferEncoding) != 1 || first.TransferEncoding[0] != "chunked" || !first.Close {
		t.Errorf("stream: Transfer-Encoding %q, Close %v, want chunked and Connection: close", first.TransferEncoding, first.Close)
	}
	if second := stream(t, url, acphttp.HeaderConnectionID, id); second.StatusCode != 409 {
		t.Errorf("a second receiver: %s, want 409", second.Status)
	}
	first.Body.Close()
	var again *http.Response
	waitFor(t, func() bool {
		again = stream(t, url, acphttp.HeaderConnectionID, id)
		if again.StatusCode == 409 {
			again.Body.Close()
			time.Sleep(10 * time.Millisecond)
			return false
		}
		return true
	})
	if again.StatusCode != 200 {
		t.Fatalf("a receiver after the first left: %s", again.Status)
	}
	if status, _, body := do(t, "DELETE", url, "", acphttp.HeaderConnectionID, id); status != 202 {
		t.Fatalf("DELETE: %d %s", status, body)
	}
	body, err := io.ReadAll(again.Body)
	if err != nil || strings.Contains(string(body), "data:") {
		t.Errorf("the stream after DELETE: %q, %v, want a clean end", body, err)
	}
}
