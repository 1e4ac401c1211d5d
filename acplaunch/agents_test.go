//go:build unix

package acplaunch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/internal/reexec"
)

// agentEnv names the test agent a re-executed test binary plays.
const agentEnv = "ACPLAUNCH_TEST_AGENT"

func TestMain(m *testing.M) { reexec.Main(m, agentEnv, testAgent) }

// agentCmd returns the command that runs the test binary as the test agent
// of mode.
func agentCmd(t *testing.T, mode string) *exec.Cmd { return reexec.Command(t, agentEnv, mode) }

// testAgent is the agent of each mode:
//   - v1, v2: an agent of that version whose session/new needs
//     authentication; it exits at the end of its input;
//   - v1-stubborn: the v1 agent, ignoring SIGTERM and the end of its input;
//   - exit3: writes two lines to standard error and exits 3;
//   - silent: never answers and ignores SIGTERM;
//   - orphan: starts a grandchild that holds its output open, then exits 4;
//   - die7-v1, die7-v2: an agent of that version that opens a session and,
//     in its first prompt turn, sends an update, writes a line to standard
//     error and exits 7.
func testAgent(mode string) {
	switch mode {
	case "v1", "v1-stubborn":
		if mode == "v1-stubborn" {
			signal.Ignore(syscall.SIGTERM)
		}
		conn := acpv1.NewAgentSideConnection(v1Agent{}, os.Stdout, os.Stdin)
		<-conn.Done()
		if mode == "v1-stubborn" {
			time.Sleep(time.Hour)
		}
	case "v2":
		conn := acpv2.NewAgentSideConnection(v2Agent{}, os.Stdout, os.Stdin)
		<-conn.Done()
	case "die7-v1":
		var a dyingV1
		acpv1.NewAgentSideConnectionFunc(func(conn *acpv1.AgentSideConnection) acpv1.Agent {
			a.conn = conn
			return &a
		}, os.Stdout, os.Stdin)
		<-a.conn.Done()
	case "die7-v2":
		var a dyingV2
		acpv2.NewAgentSideConnectionFunc(func(conn *acpv2.AgentSideConnection) acpv2.Agent {
			a.conn = conn
			return &a
		}, os.Stdout, os.Stdin)
		<-a.conn.Done()
	case "exit3":
		fmt.Fprintln(os.Stderr, "reading the configuration")
		fmt.Fprintln(os.Stderr, "no configuration: giving up")
		os.Exit(3)
	case "silent":
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(time.Hour)
	case "orphan":
		gc, err := reexec.Cmd(agentEnv, "silent")
		if err != nil {
			os.Exit(5)
		}
		gc.Stdout = os.Stdout
		gc.Start()
		fmt.Fprintln(os.Stderr, "leaving a grandchild behind")
		os.Exit(4)
	}
}

type v1Agent struct{}

func (v1Agent) Initialize(ctx context.Context, p *acpv1.InitializeRequest) (*acpv1.InitializeResponse, error) {
	return acpv1.NewInitializeResponse(1), nil
}

func (v1Agent) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return nil, acpv1.NewAuthRequiredError()
}

func (v1Agent) Cancel(ctx context.Context, p *acpv1.CancelNotification) error { return nil }

func (v1Agent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	return acpv1.NewPromptResponse(acpv1.StopReasonEndTurn), nil
}

type v2Agent struct{}

func (v2Agent) Initialize(ctx context.Context, p *acpv2.InitializeRequest) (*acpv2.InitializeResponse, error) {
	if p.ProtocolVersion != 2 {
		return nil, acpv2.NewInvalidParamsError(map[string]string{"details": "v2 only"})
	}
	return acpv2.NewInitializeResponse(2, acpv2.Implementation{Name: "test-agent", Version: "1.0.0"}), nil
}

func (v2Agent) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	return nil, acpv2.NewAuthRequiredError()
}

func (v2Agent) CancelSession(ctx context.Context, p *acpv2.CancelSessionNotification) error {
	return nil
}

func (v2Agent) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	return nil, errors.New("not used")
}

// client answers nothing: the tests' agents ask nothing of it.
type client struct{}

func (client) RequestPermission(ctx context.Context, p *acpv1.RequestPermissionRequest) (*acpv1.RequestPermissionResponse, error) {
	return acpv1.NewRequestPermissionResponse(acpv1.NewRequestPermissionOutcomeCancelled()), nil
}

func (client) SessionUpdate(ctx context.Context, p *acpv1.SessionNotification) error { return nil }

type client2 struct{}

func (client2) RequestPermission(ctx context.Context, p *acpv2.RequestPermissionRequest) (*acpv2.RequestPermissionResponse, error) {
	return acpv2.NewRequestPermissionResponse(acpv2.NewRequestPermissionOutcomeCancelled()), nil
}

func (client2) UpdateSession(ctx context.Context, p *acpv2.UpdateSessionNotification) error {
	return nil
}

// dyingV1 and dyingV2 exit 7 in the middle of their first turn.
type dyingV1 struct {
	v1Agent
	conn *acpv1.AgentSideConnection
}

func (a *dyingV1) NewSession(ctx context.Context, p *acpv1.NewSessionRequest) (*acpv1.NewSessionResponse, error) {
	return acpv1.NewNewSessionResponse("s1"), nil
}

func (a *dyingV1) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	_ = a.conn.SessionUpdate(ctx, acpv1.NewSessionNotification(p.SessionID,
		acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText("thinking"))))
	time.Sleep(50 * time.Millisecond) // the update is written
	fmt.Fprintln(os.Stderr, "out of memory: giving up mid-turn")
	os.Exit(7)
	return nil, nil
}

type dyingV2 struct {
	v2Agent
	conn *acpv2.AgentSideConnection
}

func (a *dyingV2) NewSession(ctx context.Context, p *acpv2.NewSessionRequest) (*acpv2.NewSessionResponse, error) {
	return acpv2.NewNewSessionResponse("s1"), nil
}

func (a *dyingV2) Prompt(ctx context.Context, p *acpv2.PromptRequest) (*acpv2.PromptResponse, error) {
	time.Sleep(50 * time.Millisecond)
	fmt.Fprintln(os.Stderr, "out of memory: giving up mid-turn")
	os.Exit(7)
	return nil, nil
}
