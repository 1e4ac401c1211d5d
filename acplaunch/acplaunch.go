// Package acplaunch starts an agent command and hands back a client
// connected to it: StartV1 and StartV2 for an agent of a known version,
// Start for either, negotiated with convert.Negotiate (v2 offered first).
// The process is started and supervised by package acpexec (its own
// process group, its standard error to a writer or logger, Close that ends
// it without a hang or an orphan); the connections are the generated
// acpv1 and acpv2 ClientSideConnections.
//
// acplaunch is hand-written and small: the process supervision is
// schema-independent and system-specific (acpexec), the connections and the
// negotiation are generated (acpv1, acpv2, convert), and this package only
// plugs the one into the others. A generated template could not import
// acpexec, and would only repeat these calls.
package acplaunch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/acpgen/acpgen/acpexec"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
)

// Options tunes the start: the process's (grace periods, where its standard
// error goes) and the connection's.
type Options struct {
	Process acpexec.Options
	V1      []acpv1.ConnOption // for StartV1's connection
	V2      []acpv2.ConnOption // for StartV2's connection
	// Wrap, when set, wraps the agent's output and input before the
	// connection reads and writes them: to log or record the wire.
	Wrap func(fromAgent io.Reader, toAgent io.Writer) (io.Reader, io.Writer)
}

// V1 is a v1 agent process and the client connected to it, initialized.
type V1 struct {
	*acpv1.ClientSideConnection
	Process *acpexec.Process
	Result  *acpv1.InitializeResponse // the agent's initialize result
}

// V2 is a v2 agent process and the client connected to it, initialized.
type V2 struct {
	*acpv2.ClientSideConnection
	Process *acpexec.Process
	Result  *acpv2.InitializeResponse // the agent's initialize result
}

// Agent is an agent process and the client connected to it in the version
// it speaks: Version, V1 and V1Result or V2 and V2Result.
type Agent struct {
	*convert.Negotiated
	Process *acpexec.Process
}

// StartV1 starts cmd (see acpexec.Start), connects client to it and sends
// it init. An agent that exits before it answers gives an
// *acpexec.ExitError with its exit status and last lines of standard
// error; an error answer gives the *acpv1.Error. When ctx ends before the
// answer, StartV1 ends the agent and returns ctx's error. On any error the
// agent has been ended.
func StartV1(ctx context.Context, cmd *exec.Cmd, client acpv1.Client, init *acpv1.InitializeRequest, opts *Options) (*V1, error) {
	o := options(opts)
	a := &V1{}
	err := start(ctx, cmd, &o.Process, func(ctx context.Context, p *acpexec.Process) (err error) {
		a.Process = p
		r, w := o.wire(p)
		a.ClientSideConnection = acpv1.NewClientSideConnection(client, w, r, o.V1...)
		a.Result, err = a.Initialize(ctx, init)
		return err
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// StartV2 is StartV1 for a v2 agent.
func StartV2(ctx context.Context, cmd *exec.Cmd, client acpv2.Client, init *acpv2.InitializeRequest, opts *Options) (*V2, error) {
	o := options(opts)
	a := &V2{}
	err := start(ctx, cmd, &o.Process, func(ctx context.Context, p *acpexec.Process) (err error) {
		a.Process = p
		r, w := o.wire(p)
		a.ClientSideConnection = acpv2.NewClientSideConnection(client, w, r, o.V2...)
		a.Result, err = a.Initialize(ctx, init)
		return err
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// Start starts cmd and negotiates the version with convert.Negotiate:
// offer's v2 initialize first, its v1 one when the agent speaks only v1.
// Errors are StartV1's. opts's V1 and V2 options are added to the offer's
// V1Options and V2Options: the connection of the version negotiated has
// them.
func Start(ctx context.Context, cmd *exec.Cmd, offer convert.Offer, opts *Options) (*Agent, error) {
	o := options(opts)
	offer.V1Options = append(append([]acpv1.ConnOption(nil), offer.V1Options...), o.V1...)
	offer.V2Options = append(append([]acpv2.ConnOption(nil), offer.V2Options...), o.V2...)
	a := &Agent{}
	err := start(ctx, cmd, &o.Process, func(ctx context.Context, p *acpexec.Process) (err error) {
		a.Process = p
		r, w := o.wire(p)
		a.Negotiated, err = convert.Negotiate(ctx, w, r, offer)
		return err
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// Close ends the connection and the agent: see closeBoth.
func (a *V1) Close() error { return closeBoth(a.ClientSideConnection, a.Process) }

// Close ends the connection and the agent: see closeBoth.
func (a *V2) Close() error { return closeBoth(a.ClientSideConnection, a.Process) }

// Close ends the connection and the agent: see closeBoth.
func (a *Agent) Close() error {
	if a.V2 != nil {
		return closeBoth(a.V2, a.Process)
	}
	return closeBoth(a.V1, a.Process)
}

// wire returns the connection's ends on p, wrapped by Wrap when it is set.
func (o *Options) wire(p *acpexec.Process) (io.Reader, io.Writer) {
	if o.Wrap != nil {
		return o.Wrap(reader{p}, writer{p})
	}
	return reader{p}, writer{p}
}

func options(opts *Options) Options {
	if opts == nil {
		return Options{}
	}
	return *opts
}

// exitAnswerWait is how long start waits for the initialize answer after
// the agent has exited: the answer may still be in the pipe.
const exitAnswerWait = 200 * time.Millisecond

// start starts cmd and runs initialize on it, bounded by ctx and by the
// agent's exit; on failure it ends the agent.
func start(ctx context.Context, cmd *exec.Cmd, popts *acpexec.Options, initialize func(context.Context, *acpexec.Process) error) error {
	p, err := acpexec.Start(ctx, cmd, popts)
	if err != nil {
		return err
	}
	ictx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- initialize(ictx, p) }()
	returned := true
	select {
	case err = <-done:
	case <-p.Exited():
		t := time.NewTimer(exitAnswerWait)
		select {
		case err = <-done:
		case <-t.C:
			err, returned = errors.New("no answer to initialize"), false
		}
		t.Stop()
	}
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("acplaunch: starting the agent: %w", ctx.Err())
	}
	err = p.Explain(err)
	p.Close()
	cancel()
	if !returned {
		<-done // initialize returns once its context has ended
	}
	return err
}

// connection is what closeBoth needs of either version's connection.
type connection interface {
	Close() error
	Done() <-chan struct{}
}

// flushWait bounds how long closeBoth lets the connection write what it has
// queued before it ends the agent.
const flushWait = time.Second

// closeBoth closes the connection, letting it write what it has queued for
// at most a second, then ends the agent with acpexec's Process.Close
// (input closed, grace period, SIGTERM to the group, SIGKILL), which also
// ends the connection's read. It returns the process's Close error.
func closeBoth(c connection, p *acpexec.Process) error {
	closed := make(chan struct{})
	go func() {
		c.Close()
		close(closed)
	}()
	t := time.NewTimer(flushWait)
	defer t.Stop()
	select {
	case <-closed:
	case <-t.C:
	}
	err := p.Close()
	t.Reset(flushWait)
	select {
	case <-closed:
	case <-t.C: // a handler that ignores its context; its goroutine ends when it returns
	}
	return err
}

// reader and writer hide Process's Close from the connection, so that the
// connection's Close does not end the agent: closeBoth does, after it.
// The end of the agent's output is, once the agent has exited, an
// *acpexec.ExitError that wraps io.EOF: the connection ends with it as its
// cause, so that the errors of calls and of sessions name the exit status
// or signal and the last lines of standard error.
type reader struct{ p *acpexec.Process }

func (r reader) Read(b []byte) (int, error) {
	n, err := r.p.Read(b)
	if err == io.EOF {
		err = r.p.Explain(err)
	}
	return n, err
}

type writer struct{ p *acpexec.Process }

func (w writer) Write(b []byte) (int, error) { return w.p.Write(b) }
