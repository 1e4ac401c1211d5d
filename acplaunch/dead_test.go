//go:build unix

package acplaunch

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpexec"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// routedV1 and routedV2 are clients whose sessions a SessionRouter routes.
type routedV1 struct {
	client
	acpv1.SessionRouter
}

func (c *routedV1) SessionUpdate(ctx context.Context, n *acpv1.SessionNotification) error {
	return c.SessionRouter.SessionUpdate(ctx, n)
}

type routedV2 struct {
	client2
	acpv2.SessionRouter
}

func (c *routedV2) UpdateSession(ctx context.Context, n *acpv2.UpdateSessionNotification) error {
	return c.SessionRouter.UpdateSession(ctx, n)
}

// deadAgentError checks that err names an agent's exit 7 and its last line
// of standard error, and wraps the *acpexec.ExitError and
// ErrConnectionClosed.
func deadAgentError(t *testing.T, what string, err, closed error) {
	t.Helper()
	var exit *acpexec.ExitError
	switch {
	case err == nil:
		t.Errorf("%s: no error", what)
	case !errors.As(err, &exit) || exit.ExitCode() != 7:
		t.Errorf("%s: %v, want the agent's exit status 7", what, err)
	case !errors.Is(err, closed):
		t.Errorf("%s: %v does not wrap %v", what, err, closed)
	case !strings.Contains(err.Error(), "exit status 7") || !strings.Contains(err.Error(), "giving up mid-turn"):
		t.Errorf("%s: %q, want the exit status and the last line of standard error", what, err)
	}
}

// TestDeadAgentNamesItself: an agent that exits 7 in the middle of a turn
// fails Prompt with its exit status and last line of standard error, and
// the session's Next, once the updates received are read, with the same
// cause: at once, not after a fixed wait. Both versions.
func TestDeadAgentNamesItself(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	t.Run("v1", func(t *testing.T) {
		c := &routedV1{}
		a, err := StartV1(ctx, agentCmd(t, "die7-v1"), c, acpv1.NewInitializeRequest(1), quick)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		s, _, err := c.NewSession(ctx, a.ClientSideConnection, acpv1.NewNewSessionRequest("/", nil))
		if err != nil {
			t.Fatal(err)
		}
		begin := time.Now()
		_, err = s.Prompt(ctx, []acpv1.ContentBlock{acpv1.NewContentBlockText("hi")})
		took := time.Since(begin)
		deadAgentError(t, "Prompt", err, acpv1.ErrConnectionClosed)
		if ev, err := s.Next(ctx); err != nil || ev.Notification == nil {
			t.Errorf("the update sent before the exit: %v", err)
		}
		_, err = s.Next(ctx)
		deadAgentError(t, "Next", err, acpv1.ErrSessionClosed)
		t.Logf("Prompt failed %v after it was sent", took)
	})
	t.Run("v2", func(t *testing.T) {
		c := &routedV2{}
		init := acpv2.NewInitializeRequest(2, acpv2.Implementation{Name: "test-client", Version: "1.0.0"})
		a, err := StartV2(ctx, agentCmd(t, "die7-v2"), c, init, quick)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		s, _, err := c.NewSession(ctx, a.ClientSideConnection, acpv2.NewNewSessionRequest("/"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Prompt(ctx, []acpv2.ContentBlock{acpv2.NewContentBlockText("hi")})
		deadAgentError(t, "Prompt", err, acpv2.ErrConnectionClosed)
		_, err = s.Next(ctx)
		deadAgentError(t, "Next", err, acpv2.ErrSessionClosed)
	})
}
