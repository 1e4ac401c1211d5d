package acpv1test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// holdingClient routes session updates and holds each permission request
// until its context ends: only a cancel answers it.
type holdingClient struct {
	acpv1.SessionRouter
}

func (c *holdingClient) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// wireMsg is a line of the wire, as a scripted agent reads it.
type wireMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
}

// scriptedAgent plays an agent on raw lines: it reads what the client
// writes and writes what the test says.
type scriptedAgent struct {
	t   *testing.T
	in  *bufio.Reader
	out io.Writer
}

func (a *scriptedAgent) read() wireMsg {
	line, err := a.in.ReadString('\n')
	if err != nil {
		a.t.Errorf("the agent's input ended: %v", err)
		return wireMsg{}
	}
	var m wireMsg
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		a.t.Errorf("a line that is not JSON-RPC: %s", line)
	}
	return m
}

func (a *scriptedAgent) write(format string, args ...any) {
	_, _ = fmt.Fprintf(a.out, format+"\n", args...)
}

const permissionParams = `{"sessionId":"s1","toolCall":{"toolCallId":"c%d"},"options":[{"optionId":"allow","name":"Allow","kind":"allow_once"}]}`

// startScripted connects a holdingClient to a scripted agent, initialized
// and with session s1 open.
func startScripted(t *testing.T, ctx context.Context) (*holdingClient, *acpv1.ClientSideConnection, *acpv1.ActiveSession, *scriptedAgent, func()) {
	clientIn, agentOut := io.Pipe()
	agentIn, clientOut := io.Pipe()
	c := &holdingClient{}
	conn := acpv1.NewClientSideConnection(c, clientOut, clientIn)
	a := &scriptedAgent{t: t, in: bufio.NewReader(agentIn), out: agentOut}
	go func() {
		a.read()
		a.write(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}`)
		a.read()
		a.write(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}`)
	}()
	if _, err := conn.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		t.Fatal(err)
	}
	s, _, err := c.NewSession(ctx, conn, acpv1.NewNewSessionRequest("/", nil))
	if err != nil {
		t.Fatal(err)
	}
	return c, conn, s, a, func() {
		agentOut.Close()
		go func() { _, _ = io.Copy(io.Discard, agentIn) }()
		conn.Close()
	}
}

// TestPromptContextCancels: cancelling the context of a v1 session's
// Prompt sends session/cancel (not $/cancel_request), answers the pending
// permission request and one that comes after session/cancel with the
// cancelled outcome, and returns the agent's answer, stop reason
// cancelled. Cancel does the same.
func TestPromptContextCancels(t *testing.T) {
	for _, how := range []string{"context", "Cancel"} {
		t.Run(how, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, _, s, a, stop := startScripted(t, ctx)
			defer stop()
			pctx, pcancel := context.WithCancel(ctx)
			defer pcancel()
			agentDone := make(chan []string, 1)
			go func() {
				var seen []string
				prompt := a.read() // session/prompt
				a.write(`{"jsonrpc":"2.0","id":"p1","method":"session/request_permission","params":`+permissionParams+`}`, 1)
				if how == "context" {
					pcancel()
				} else {
					time.AfterFunc(50*time.Millisecond, func() { _, _ = s.Cancel(ctx) })
				}
				for len(seen) < 2 {
					m := a.read()
					switch {
					case m.Method != "":
						seen = append(seen, m.Method)
						if m.Method == acpv1.MethodCancel {
							a.write(`{"jsonrpc":"2.0","id":"p2","method":"session/request_permission","params":`+permissionParams+`}`, 2)
						}
					default:
						seen = append(seen, string(m.ID)+" "+string(m.Result))
					}
				}
				m := a.read() // the late request's answer
				seen = append(seen, string(m.ID)+" "+string(m.Result))
				a.write(`{"jsonrpc":"2.0","id":%s,"result":{"stopReason":"cancelled"}}`, prompt.ID)
				agentDone <- seen
			}()
			begin := time.Now()
			res, err := s.Prompt(pctx, []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")})
			if err != nil || res.StopReason != acpv1.StopReasonCancelled {
				t.Fatalf("Prompt: %+v, %v; want stop reason cancelled", res, err)
			}
			t.Logf("Prompt returned %v after it was sent", time.Since(begin))
			seen := <-agentDone
			all := strings.Join(seen, "\n")
			if seen[0] != acpv1.MethodCancel && seen[1] != acpv1.MethodCancel {
				t.Errorf("no session/cancel among %q", seen)
			}
			if strings.Contains(all, acpv1.MethodCancelRequest) {
				t.Errorf("$/cancel_request was sent: %q", seen)
			}
			for _, id := range []string{`"p1"`, `"p2"`} {
				if !strings.Contains(all, id+` {"outcome":{"outcome":"cancelled"}}`) {
					t.Errorf("permission request %s not answered cancelled: %q", id, seen)
				}
			}
		})
	}
}

// TestPromptCancelIgnored: an agent that ignores session/cancel has the
// prompt request cancelled after the router's CancelWait, and Prompt
// returns ErrCancelIgnored.
func TestPromptCancelIgnored(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, s, a, stop := startScripted(t, ctx)
	defer stop()
	c.CancelWait = 100 * time.Millisecond
	pctx, pcancel := context.WithCancel(ctx)
	methods := make(chan string, 4)
	go func() {
		a.read()
		pcancel()
		for i := 0; i < 2; i++ {
			methods <- a.read().Method
		}
	}()
	_, err := s.Prompt(pctx, []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")})
	if !errors.Is(err, acpv1.ErrCancelIgnored) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Prompt: %v, want ErrCancelIgnored and context.Canceled", err)
	}
	if m1, m2 := <-methods, <-methods; m1 != acpv1.MethodCancel || m2 != acpv1.MethodCancelRequest {
		t.Errorf("the agent read %s then %s, want session/cancel then $/cancel_request", m1, m2)
	}
}
