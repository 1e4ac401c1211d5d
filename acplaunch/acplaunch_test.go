//go:build unix

package acplaunch

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpexec"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// quick keeps the tests short; patient is for the agents that exit at the
// end of their input, so that a loaded machine does not make them look as
// if they had not.
var (
	quick   = &Options{Process: acpexec.Options{Grace: 200 * time.Millisecond, TermGrace: 300 * time.Millisecond, Stderr: io.Discard}}
	patient = &Options{Process: acpexec.Options{Grace: 3 * time.Second, Stderr: io.Discard}}
)

func offer() convert.Offer {
	return convert.Offer{
		V2:       acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "test-client", Version: "1.0.0"}),
		V2Client: client2{},
		V1:       acpv1.NewInitializeRequest(1),
		V1Client: client{},
	}
}

func TestStartV1(t *testing.T) {
	ctx := context.Background()
	a, err := StartV1(ctx, agentCmd(t, "v1"), client{}, acpv1.NewInitializeRequest(1), patient)
	if err != nil {
		t.Fatal(err)
	}
	if a.Result.ProtocolVersion != 1 {
		t.Errorf("protocol version %d", a.Result.ProtocolVersion)
	}
	_, err = a.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	var rpcErr *acpv1.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != acpv1.NewAuthRequiredError().Code {
		t.Errorf("session/new: %v, want the auth-required error", err)
	}
	begin := time.Now()
	if err := a.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if took := time.Since(begin); took > 2*time.Second || a.Process.Ending() != acpexec.Exited {
		t.Errorf("Close took %v and the agent %v; want an exit at the end of its input", took, a.Process.Ending())
	}
}

func TestStartV2(t *testing.T) {
	a, err := StartV2(context.Background(), agentCmd(t, "v2"), client2{}, offer().V2, quick)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Result.ProtocolVersion != 2 || a.Result.Info.Name != "test-agent" {
		t.Errorf("result %+v", a.Result)
	}
}

func TestStartNegotiates(t *testing.T) {
	for _, want := range []int{1, 2} {
		mode := map[int]string{1: "v1", 2: "v2"}[want]
		a, err := Start(context.Background(), agentCmd(t, mode), offer(), patient)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if a.Version != want || (want == 1) != (a.V1 != nil && a.V1Result != nil) || (want == 2) != (a.V2 != nil && a.V2Result != nil) {
			t.Errorf("the %s agent: version %d", mode, a.Version)
		}
		if err := a.Close(); err != nil || a.Process.Ending() != acpexec.Exited {
			t.Errorf("the %s agent: Close %v, %v", mode, err, a.Process.Ending())
		}
	}
}

// TestExitBeforeInitialize: an agent that exits before it answers, with
// and without a grandchild that holds its output open, gives its exit
// status and its last lines of standard error, at once.
func TestExitBeforeInitialize(t *testing.T) {
	for _, tc := range []struct {
		mode   string
		code   int
		stderr string
	}{
		{"exit3", 3, "\tno configuration: giving up"},
		{"orphan", 4, "\tleaving a grandchild behind"},
	} {
		begin := time.Now()
		_, err := StartV1(context.Background(), agentCmd(t, tc.mode), client{}, acpv1.NewInitializeRequest(1), quick)
		took := time.Since(begin)
		var exit *acpexec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != tc.code {
			t.Errorf("%s: %v, want the exit status %d", tc.mode, err, tc.code)
			continue
		}
		if !strings.Contains(err.Error(), tc.stderr) {
			t.Errorf("%s: %q lacks %q", tc.mode, err, tc.stderr)
		}
		if took > 2*time.Second {
			t.Errorf("%s: the error came after %v", tc.mode, took)
		}
	}
}

// TestStartBounded: ctx bounds the start, and the agent (which ignores
// SIGTERM) is ended before the error is returned.
func TestStartBounded(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	begin := time.Now()
	_, err := Start(ctx, agentCmd(t, "silent"), offer(), quick)
	took := time.Since(begin)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a silent agent: %v, want the deadline", err)
	}
	if took < 300*time.Millisecond || took > 2*time.Second {
		t.Errorf("the start returned after %v", took)
	}
}

// TestCloseStubborn: an agent that ignores the end of its input and SIGTERM
// is killed by Close with the default grace periods, in about 3 s.
func TestCloseStubborn(t *testing.T) {
	a, err := StartV1(context.Background(), agentCmd(t, "v1-stubborn"), client{}, acpv1.NewInitializeRequest(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	a.Close()
	took := time.Since(begin)
	if a.Process.Ending() != acpexec.Killed || a.Process.State() == nil {
		t.Errorf("the agent %v, state %v; want killed and reaped", a.Process.Ending(), a.Process.State())
	}
	if took < 3*time.Second || took > 4500*time.Millisecond {
		t.Errorf("Close took %v, want about 3 s", took)
	}
	select {
	case <-a.Done():
	default:
		t.Error("the connection is still open")
	}
}

// TestStartHonoursOptions: Start gives the connection of the version it
// negotiates the options of that version: here a middleware that records
// the calls going out.
func TestStartHonoursOptions(t *testing.T) {
	for _, want := range []int{1, 2} {
		mode := map[int]string{1: "v1", 2: "v2"}[want]
		var seen []string
		record := func(next acpv1.Handler) acpv1.Handler {
			return func(ctx context.Context, call acpv1.Call) (any, error) {
				if !call.Inbound() {
					seen = append(seen, call.Method())
				}
				return next(ctx, call)
			}
		}
		opts := *patient
		opts.V1 = []acpv1.ConnOption{acpv1.WithMiddleware(record)}
		opts.V2 = []acpv2.ConnOption{acpv2.WithMiddleware(record)}
		a, err := Start(context.Background(), agentCmd(t, mode), offer(), &opts)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if want == 1 {
			err = a.V1.ExtNotification(context.Background(), "_test/ping", map[string]any{})
		} else {
			err = a.V2.ExtNotification(context.Background(), "_test/ping", map[string]any{})
		}
		a.Close()
		if err != nil || len(seen) == 0 || seen[len(seen)-1] != "_test/ping" {
			t.Errorf("the %s connection's middleware saw %q (%v)", mode, seen, err)
		}
	}
}
