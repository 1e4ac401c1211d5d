package acphttp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acphttp"
	"github.com/acpgen/acpgen/generated/acpv1"
)

// echoAgent echoes each text block of a prompt as a message chunk, asks
// the client for permission, and reports the chosen option.
type echoAgent struct {
	conn    *acpv1.AgentSideConnection
	waiting chan<- struct{} // told of a prompt "wait", which waits for its context to end

	mu       sync.Mutex
	sessions int
}

func (a *echoAgent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return acpv1.NewInitializeResponse(1), nil
}

func (a *echoAgent) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sessions++
	return acpv1.NewNewSessionResponse(acpv1.SessionID(fmt.Sprintf("sess_%d", a.sessions))), nil
}

func (a *echoAgent) Cancel(ctx context.Context, p *acpv1.CancelNotification) error { return nil }

func (a *echoAgent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	if t, ok := p.Prompt[0].Value.(*acpv1.ContentBlockText); ok && t.Text == "wait" {
		a.waiting <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	for _, block := range p.Prompt {
		if err := a.say(ctx, p.SessionID, block); err != nil {
			return nil, err
		}
	}
	answer, err := a.conn.RequestPermission(ctx, acpv1.NewRequestPermissionRequest(p.SessionID,
		acpv1.ToolCallUpdate{ToolCallID: "call_1", Title: acpv1.Ptr("echo")},
		[]acpv1.PermissionOption{{OptionID: "allow", Name: "Allow", Kind: acpv1.PermissionOptionKindAllowOnce}}))
	if err != nil {
		return nil, err
	}
	outcome := "cancelled"
	if s, ok := answer.Outcome.Value.(*acpv1.RequestPermissionOutcomeSelected); ok {
		outcome = string(s.OptionID)
	}
	if err := a.say(ctx, p.SessionID, acpv1.NewContentBlockText("permission: "+outcome)); err != nil {
		return nil, err
	}
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}

func (a *echoAgent) say(ctx context.Context, id acpv1.SessionID, block acpv1.ContentBlock) error {
	return a.conn.SessionUpdate(ctx, acpv1.NewSessionNotification(id, acpv1.NewSessionUpdateAgentMessageChunk(block)))
}

// connectEcho is the ConnectFunc of the echo agent.
func connectEcho(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
	return connectWaiting(nil)(r, out, in)
}

// connectWaiting returns the ConnectFunc of an echo agent that tells
// waiting of each prompt "wait".
func connectWaiting(waiting chan<- struct{}) acphttp.ConnectFunc {
	return func(r *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		a := &echoAgent{waiting: waiting}
		acpv1.NewAgentSideConnectionFunc(func(conn *acpv1.AgentSideConnection) acpv1.Agent {
			a.conn = conn
			return a
		}, out, in)
		return a.conn, nil
	}
}

// recorder is a client that keeps the text of the chunks per session and
// allows every permission request.
type recorder struct {
	mu   sync.Mutex
	text map[acpv1.SessionID][]string
}

func (r *recorder) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	if c, ok := n.Update.Value.(*acpv1.SessionUpdateAgentMessageChunk); ok {
		if t, ok := c.Content.Value.(*acpv1.ContentBlockText); ok {
			r.mu.Lock()
			if r.text == nil {
				r.text = map[acpv1.SessionID][]string{}
			}
			r.text[n.SessionID] = append(r.text[n.SessionID], t.Text)
			r.mu.Unlock()
		}
	}
	return nil
}

func (r *recorder) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeSelected(p.Options[0].OptionID)), nil
}

func (r *recorder) said(id acpv1.SessionID) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.text[id], "|")
}

// serve starts a test server of the echo agent and returns it with the
// URL of its endpoint; the server shuts down at the end of the test.
func serve(t *testing.T, opts *acphttp.Options) (*acphttp.Server, string) {
	t.Helper()
	if opts == nil {
		opts = &acphttp.Options{}
	}
	if opts.ErrorLog == nil {
		// The tests look at what the log tells of instead.
		opts.ErrorLog = log.New(io.Discard, "", 0)
	}
	s := acphttp.NewServer(connectEcho, opts)
	return s, serveHandler(t, s)
}

// serveHandler starts a test server of s and returns the URL of its
// endpoint; s shuts down at the end of the test.
func serveHandler(t *testing.T, s *acphttp.Server) string {
	t.Helper()
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		ts.Close()
	})
	return ts.URL + "/acp"
}

// TestEndToEnd runs the echo agent with acpv1's client over both
// profiles: two sessions prompting at once, each with a permission
// request answered on its own stream.
func TestEndToEnd(t *testing.T) {
	for _, profile := range []string{"http", "ws"} {
		t.Run(profile, func(t *testing.T) {
			s, url := serve(t, nil)
			url = profileURL(url, profile)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			tr, err := acphttp.Dial(ctx, url, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := &recorder{}
			conn := acpv1.NewClientSideConnection(rec, tr, tr)
			if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
				t.Fatal(err)
			}
			if tr.ConnectionID() == "" {
				t.Error("no connection id after initialize")
			}
			var wg sync.WaitGroup
			for i := range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sess, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
					if err != nil {
						t.Error(err)
						return
					}
					text := fmt.Sprintf("hello %d", i)
					r, err := conn.Prompt(ctx, acpv1.NewPromptRequest(sess.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText(text)}))
					if err != nil {
						t.Error(err)
						return
					}
					if r.StopReason != acpv1.StopReasonEndTurn {
						t.Errorf("stop reason %q", r.StopReason)
					}
					if got, want := rec.said(sess.SessionID), text+"|permission: allow"; got != want {
						t.Errorf("session %s said %q, want %q", sess.SessionID, got, want)
					}
				}()
			}
			wg.Wait()
			if n := s.Connections(); n != 1 {
				t.Errorf("%d connections, want 1", n)
			}
			if err := tr.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			select {
			case <-conn.Done():
			case <-ctx.Done():
				t.Fatal("the client connection did not end after Close")
			}
			if !errors.Is(conn.Err(), acpv1.ErrConnectionClosed) {
				t.Errorf("Err() = %v", conn.Err())
			}
			waitFor(t, func() bool { return s.Connections() == 0 })
		})
	}
}

// profileURL returns the endpoint at url as the profile ("ws" or "http")
// reaches it: a ws URL for a WebSocket.
func profileURL(url, profile string) string {
	if profile == "ws" {
		return "ws" + strings.TrimPrefix(url, "http")
	}
	return url
}

// waitFor waits up to 5 s for cond.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}

// TestBackpressure runs a prompt whose updates are many times
// MaxBufferedBytes over both profiles: the agent waits while its client
// is behind, and every update arrives, in order.
func TestBackpressure(t *testing.T) {
	for _, profile := range []string{"http", "ws"} {
		t.Run(profile, func(t *testing.T) {
			_, url := serve(t, &acphttp.Options{Limits: acphttp.Limits{MaxBufferedBytes: 300}})
			url = profileURL(url, profile)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			tr, err := acphttp.Dial(ctx, url, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			rec := &recorder{}
			conn := acpv1.NewClientSideConnection(rec, tr, tr)
			if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
				t.Fatal(err)
			}
			sess, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
			if err != nil {
				t.Fatal(err)
			}
			var blocks []acpv1.ContentBlock
			var want []string
			for i := range 100 {
				text := fmt.Sprintf("block %d", i)
				blocks = append(blocks, acpv1.NewContentBlockText(text))
				want = append(want, text)
			}
			if _, err := conn.Prompt(ctx, acpv1.NewPromptRequest(sess.SessionID, blocks)); err != nil {
				t.Fatal(err)
			}
			want = append(want, "permission: allow")
			if got := rec.said(sess.SessionID); got != strings.Join(want, "|") {
				t.Errorf("said %s", got)
			}
		})
	}
}
