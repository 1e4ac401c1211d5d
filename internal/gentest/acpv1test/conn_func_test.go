package acpv1test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// readRecorder is a reader that records whether it has been read.
type readRecorder struct {
	r    io.Reader
	read atomic.Bool
}

func (r *readRecorder) Read(p []byte) (int, error) {
	r.read.Store(true)
	return r.r.Read(p)
}

// callbackAgent answers a prompt with a session update sent through the
// connection it was made with.
type callbackAgent struct {
	acpv1.Agent
	conn *acpv1.AgentSideConnection
}

func (a *callbackAgent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return acpv1.NewInitializeResponse(1), nil
}

func (a *callbackAgent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	err := a.conn.SessionUpdate(ctx, acpv1.NewSessionNotification(p.SessionID,
		acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText("hi"))))
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), err
}

// TestNewConnFunc: the function of NewAgentSideConnectionFunc gets the
// connection before anything is read, so that an agent that calls back
// has it for the messages already waiting.
func TestNewConnFunc(t *testing.T) {
	pr, pw := io.Pipe()
	in := &readRecorder{r: pr}
	go func() {
		// Waiting before the connection is made.
		_, _ = io.WriteString(pw, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}
{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}
`)
	}()
	out, w := io.Pipe()
	var made *acpv1.AgentSideConnection
	conn := acpv1.NewAgentSideConnectionFunc(func(c *acpv1.AgentSideConnection) acpv1.Agent {
		if in.read.Load() {
			t.Error("the input was read before the agent was made")
		}
		made = c
		return &callbackAgent{conn: c}
	}, w, in)
	defer func() {
		pw.Close()
		go func() { _, _ = io.Copy(io.Discard, out) }()
		<-conn.Done()
	}()
	if made != conn {
		t.Errorf("the agent was made with %p, the constructor returned %p", made, conn)
	}
	lines := bufio.NewScanner(out)
	var got []string
	for len(got) < 3 && lines.Scan() {
		got = append(got, lines.Text())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{`"method":"session/update"`, `"id":2,"result":{"stopReason":"end_turn"}`} {
		if !strings.Contains(all, want) {
			t.Errorf("the output lacks %s:\n%s", want, all)
		}
	}
}
