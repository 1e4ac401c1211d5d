package acphttp_test

import (
	"context"
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
	"github.com/acpgen/acpgen/generated/acpv2"
)

// loadingAgent is the echo agent that loads a session by replaying what
// it said in it, from a history that outlives its process.
type loadingAgent struct {
	echoAgent
	history *history
}

// history is what a loading agent said per session, kept by the agent's
// store across restarts.
type history struct {
	mu   sync.Mutex
	said map[acpv1.SessionID][]string
	hold chan struct{} // what a prompt "hold" waits for after its first chunk
}

func (a *loadingAgent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	for _, block := range p.Prompt {
		if t, ok := block.Value.(*acpv1.ContentBlockText); ok {
			a.history.mu.Lock()
			a.history.said[p.SessionID] = append(a.history.said[p.SessionID], t.Text)
			a.history.mu.Unlock()
		}
	}
	if t, ok := p.Prompt[0].Value.(*acpv1.ContentBlockText); ok && t.Text == "hold" {
		// Say one thing, then wait for the test before the rest.
		if err := a.say(ctx, p.SessionID, p.Prompt[0]); err != nil {
			return nil, err
		}
		<-a.history.hold
		p.Prompt = p.Prompt[1:]
	}
	return a.echoAgent.Prompt(ctx, p)
}

func (a *loadingAgent) LoadSession(ctx context.Context, p *acpv1.LoadSessionRequest) (*acpv1.LoadSessionResponse, error) {
	a.history.mu.Lock()
	said := append([]string(nil), a.history.said[p.SessionID]...)
	a.history.mu.Unlock()
	for _, text := range said {
		if err := a.say(ctx, p.SessionID, acpv1.NewContentBlockText("replayed "+text)); err != nil {
			return nil, err
		}
	}
	return &acpv1.LoadSessionResponse{}, nil
}

// loadingServer starts a resumable server of loading agents sharing h,
// and returns its host:port and a function that stops it.
func loadingServer(t *testing.T, h *history, r *acphttp.Resumable) (string, func()) {
	t.Helper()
	r.KeepAlive = testKeepAlive
	s := acphttp.NewServer(func(_ *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		a := &loadingAgent{history: h}
		acpv1.NewAgentSideConnectionFunc(func(conn *acpv1.AgentSideConnection) acpv1.Agent {
			a.conn = conn
			return a
		}, out, in)
		return a.conn, nil
	}, &acphttp.Options{Resumable: r, ErrorLog: log.New(io.Discard, "", 0)})
	ts := httptest.NewServer(s)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = s.Shutdown(ctx)
			ts.Close()
		})
	}
	t.Cleanup(stop)
	return strings.TrimPrefix(ts.URL, "http://"), stop
}

// fallbackClient dials the proxy over profile with a reconnecting
// transport, starts a session and returns it with what it was told of
// rebuilt sessions.
type fallbackClient struct {
	tr      *acphttp.Transport
	conn    *acpv1.ClientSideConnection
	rec     *recorder
	session acpv1.SessionID
	mu      sync.Mutex
	rebuilt []acphttp.Rebuilt
}

func dialFallback(t *testing.T, profile, addr string) *fallbackClient {
	t.Helper()
	f := &fallbackClient{rec: &recorder{}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tr, err := acphttp.Dial(ctx, profile+"://"+addr+"/", reconnecting(&f.rebuilt, &f.mu))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	f.tr = tr
	acpv1.NewClientSideConnectionFunc(func(conn *acpv1.ClientSideConnection) acpv1.Client {
		f.conn = conn
		return f.rec
	}, tr, tr)
	if _, err := f.conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	s, err := f.conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		t.Fatal(err)
	}
	f.session = s.SessionID
	return f
}

// prompt sends a prompt of texts and returns its error.
func (f *fallbackClient) prompt(texts ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	blocks := make([]acpv1.ContentBlock, len(texts))
	for i, s := range texts {
		blocks[i] = acpv1.NewContentBlockText(s)
	}
	_, err := f.conn.Prompt(ctx, acpv1.NewPromptRequest(f.session, blocks))
	return err
}

// waitRebuilt waits for the first session rebuilt.
func (f *fallbackClient) waitRebuilt(t *testing.T) acphttp.Rebuilt {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		f.mu.Lock()
		if len(f.rebuilt) > 0 {
			r := f.rebuilt[0]
			f.mu.Unlock()
			return r
		}
		f.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no session rebuilt")
	return acphttp.Rebuilt{}
}

// TestResumeFallback checks the client's fallback on both profiles: a
// cursor the server's retention has passed (a stream half-open while the
// agent wrote on) is refused, and so is a connection an agent restarted
// as a new process does not know; either way the client takes the
// session back with session/load on a new connection, tells the program,
// fails the prompt that was waiting, and goes on.
func TestResumeFallback(t *testing.T) {
	for _, profile := range []string{"http", "ws"} {
		t.Run(profile+"/expired", func(t *testing.T) {
			h := &history{said: map[acpv1.SessionID][]string{}, hold: make(chan struct{})}
			addr, _ := loadingServer(t, h, &acphttp.Resumable{RetentionMessages: 1})
			p := newFaultProxy(t, addr, 7)
			f := dialFallback(t, profile, p.addr())
			if err := f.prompt("one"); err != nil {
				t.Fatal(err)
			}
			// A long turn whose stream goes half-open after its first chunk:
			// the agent writes on into the void, past the retention.
			waiting := make(chan error, 1)
			go func() { waiting <- f.prompt(strings.Fields("hold a b c d e f g h i j")...) }()
			for f.rec.said(f.session) == "one|permission: allow" {
				time.Sleep(time.Millisecond)
			}
			p.freezeAll()
			close(h.hold)
			r := f.waitRebuilt(t)
			if r.SessionID != string(f.session) || r.Failed || r.Err == nil || !strings.Contains(r.Err.Error(), "expired_cursor") {
				t.Fatalf("rebuilt %+v", r)
			}
			if err := <-waiting; err == nil {
				t.Error("the prompt waiting across the rebuild succeeded")
			}
			// The replay came before the answer to session/load, which the
			// program's connection may still be handing to the recorder.
			waitFor(t, func() bool { return strings.Contains(f.rec.said(f.session), "replayed one") })
			if err := f.prompt("after"); err != nil {
				t.Fatalf("after the rebuild: %v", err)
			}
		})
		t.Run(profile+"/restart", func(t *testing.T) {
			h := &history{said: map[acpv1.SessionID][]string{}}
			addr, stop := loadingServer(t, h, &acphttp.Resumable{})
			p := newFaultProxy(t, addr, 8)
			f := dialFallback(t, profile, p.addr())
			if err := f.prompt("before"); err != nil {
				t.Fatal(err)
			}
			// The agent's process ends; another takes its place.
			addr2, _ := loadingServer(t, h, &acphttp.Resumable{})
			p.retarget(addr2)
			stop()
			p.cutAll()
			r := f.waitRebuilt(t)
			if r.SessionID != string(f.session) || r.Failed {
				t.Fatalf("rebuilt %+v", r)
			}
			if err := f.prompt("after"); err != nil {
				t.Fatalf("after the restart: %v", err)
			}
			if said := f.rec.said(f.session); !strings.Contains(said, "replayed before") || !strings.HasSuffix(said, "after|permission: allow") {
				t.Errorf("said %q", said)
			}
		})
	}
}

// TestResumeHalfOpen checks that a client finds a half-open stream dead
// within five keep-alive intervals of silence, on both profiles, and
// resumes it.
func TestResumeHalfOpen(t *testing.T) {
	for _, profile := range []string{"http", "ws"} {
		t.Run(profile, func(t *testing.T) {
			_, addr := resumableServer(t, &acphttp.Resumable{})
			p := newFaultProxy(t, addr, 9)
			var mu sync.Mutex
			var rebuilt []acphttp.Rebuilt
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			tr, err := acphttp.Dial(ctx, profile+"://"+p.addr()+"/", reconnecting(&rebuilt, &mu))
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			rec := &recorder{}
			conn := acpv1.NewClientSideConnection(rec, tr, tr)
			if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
				t.Fatal(err)
			}
			s, err := conn.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(3 * testKeepAlive)
			before := p.accepted.Load()
			p.freezeAll()
			frozen := time.Now()
			for p.accepted.Load() == before && time.Since(frozen) < 5*time.Second {
				time.Sleep(time.Millisecond)
			}
			found := time.Since(frozen)
			t.Logf("%s: a half-open stream found dead and reconnected %v after it froze (keep-alive %v)", profile, found.Round(time.Millisecond), testKeepAlive)
			// Silence counts from the last byte, at most an interval before
			// the freeze; the watch looks each quarter interval.
			if found > 6*testKeepAlive+50*time.Millisecond {
				t.Errorf("found after %v, more than five keep-alive intervals of %v and the checks' slack", found, testKeepAlive)
			}
			ctx2, cancel2 := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel2()
			if _, err := conn.Prompt(ctx2, acpv1.NewPromptRequest(s.SessionID, []acpv1.ContentBlock{acpv1.NewContentBlockText("still here")})); err != nil {
				t.Fatal(err)
			}
			if got := rec.said(s.SessionID); got != "still here|permission: allow" {
				t.Errorf("said %q", got)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(rebuilt) != 0 {
				t.Errorf("rebuilt %+v", rebuilt)
			}
		})
	}
}

// runningAgentV2 is a v2 agent whose turn reports running, says one
// chunk, and goes on until its client's session is resumed.
type runningAgentV2 struct {
	echoAgentV2
	release chan struct{}
}

func (a *runningAgentV2) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	go func() {
		ctx := context.WithoutCancel(ctx)
		_ = a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(p.SessionID, acpv2.NewSessionUpdateStateUpdate(acpv2.NewStateUpdateRunning())))
		_ = a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(p.SessionID, acpv2.NewSessionUpdateAgentMessageChunk("m1", acpv2.NewContentBlockText("working"))))
		<-a.release
		_ = a.conn.UpdateSession(ctx, acpv2.NewUpdateSessionNotification(p.SessionID, acpv2.NewSessionUpdateStateUpdate(acpv2.NewStateUpdateIdle(acpv2.NewIdleStateUpdateEndTurn()))))
	}()
	return acpv2.NewPromptResponse("m1"), nil
}

// TestResumeStateUpdateV2 checks that after a resume a v2 server sends the
// session's current state, a state_update, after the replay: running
// while the turn goes on, idle with its stop reason once it has ended.
func TestResumeStateUpdateV2(t *testing.T) {
	release := make(chan struct{})
	s := acphttp.NewServer(func(_ *http.Request, out io.Writer, in io.Reader) (acphttp.Conn, error) {
		a := &runningAgentV2{release: release}
		acpv2.NewAgentSideConnectionFunc(func(conn *acpv2.AgentSideConnection) acpv2.Agent {
			a.conn = conn
			return a
		}, out, in)
		return a.conn, nil
	}, &acphttp.Options{Resumable: &acphttp.Resumable{}, ErrorLog: log.New(io.Discard, "", 0)})
	url := serveHandler(t, s)
	resp := postRaw(t, url, "", "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"raw","version":"1"}}}`)
	conn := resp.Header.Get(acphttp.HeaderConnectionID)
	_, main := openRaw(t, url, conn, "", "")
	main.next(t)
	postRaw(t, url, conn, "", `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/"}}`)
	main.next(t)
	_, st := openRaw(t, url, conn, "s1", "")
	st.next(t)
	postRaw(t, url, conn, "s1", `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"go"}]}}`)
	var got []rawEvent
	for len(got) < 3 { // the answer, running, the chunk
		got = append(got, st.next(t))
	}
	_, again := openRaw(t, url, conn, "s1", got[0].id)
	for _, want := range got[1:] {
		if ev := again.next(t); ev != want {
			t.Fatalf("replayed %+v, want %+v", ev, want)
		}
	}
	if state := again.next(t); !strings.Contains(state.data, `"update":{"sessionUpdate":"state_update","state":"running"}`) {
		t.Fatalf("after the replay %s", state.data)
	}
	close(release)
	idle := again.next(t)
	if !strings.Contains(idle.data, `"state":"idle"`) {
		t.Fatalf("then %s", idle.data)
	}
	_, third := openRaw(t, url, conn, "s1", idle.id)
	if state := third.next(t); !strings.Contains(state.data, `"state":"idle","stopReason":"end_turn"`) {
		t.Fatalf("after the turn ended, a resume tells %s", state.data)
	}
}

// TestResumeGrace checks that a connection whose stream has no receiver
// lives on for the grace period, then ends with its agent.
func TestResumeGrace(t *testing.T) {
	s, addr := resumableServer(t, &acphttp.Resumable{Grace: 200 * time.Millisecond})
	url := "http://" + addr + "/"
	resp := postRaw(t, url, "", "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	conn := resp.Header.Get(acphttp.HeaderConnectionID)
	_, main := openRaw(t, url, conn, "", "")
	start := main.next(t)
	main.close()
	time.Sleep(50 * time.Millisecond)
	if s.Connections() != 1 {
		t.Fatalf("%d connections within the grace period", s.Connections())
	}
	if resp, _ := openRaw(t, url, conn, "", start.id); resp.StatusCode != http.StatusOK {
		t.Fatalf("resumed within the grace period: %d", resp.StatusCode)
	}
	// That receiver goes too (the test's cleanup closes it): wait past
	// the grace period after dropping it.
	_, again := openRaw(t, url, conn, "", start.id)
	again.close()
	deadline := time.Now().Add(5 * time.Second)
	for s.Connections() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if s.Connections() != 0 {
		t.Fatal("the connection outlived its grace period")
	}
	if resp, _ := openRaw(t, url, conn, "", start.id); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("after the grace period: %d", resp.StatusCode)
	}
}

// TestResumeNotAfterClose checks that a reconnecting client does not
// reconnect once closed (DELETE, or a close frame), nor take back a
// session it closed.
func TestResumeNotAfterClose(t *testing.T) {
	for _, profile := range []string{"http", "ws"} {
		t.Run(profile, func(t *testing.T) {
			h := &history{said: map[acpv1.SessionID][]string{}}
			addr, _ := loadingServer(t, h, &acphttp.Resumable{})
			p := newFaultProxy(t, addr, 10)
			f := dialFallback(t, profile, p.addr())
			if err := f.prompt("one"); err != nil {
				t.Fatal(err)
			}
			f.tr.Close()
			after := p.accepted.Load()
			p.cutAll()
			time.Sleep(20 * testKeepAlive)
			if n := p.accepted.Load(); n != after {
				t.Errorf("%d connections after Close", n-after)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if len(f.rebuilt) != 0 {
				t.Errorf("rebuilt after Close: %+v", f.rebuilt)
			}
		})
	}
}
