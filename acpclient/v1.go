package acpclient

import (
	"context"
	"errors"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// V1 serves a Host's duties to a v1 agent: it implements acpv1's
// ClientReadTextFile, ClientWriteTextFile and terminal interfaces. Embed a
// *V1 in the Client given to acpv1.NewClientSideConnection (or acplaunch),
// send Capabilities in initialize, and add the Host's Middleware to the
// connection so that the sessions the client opens are known.
type V1 struct{ h *Host }

// V1 returns the Host's v1 adapter.
func (h *Host) V1() *V1 { return &V1{h: h} }

// Host returns the Host v serves.
func (v *V1) Host() *Host { return v.h }

// Capabilities returns the client capabilities of what the Host serves:
// fs.readTextFile, fs.writeTextFile and terminal, each true or false.
func (v *V1) Capabilities() *acpv1.ClientCapabilities {
	o := v.h.opts
	c := &acpv1.ClientCapabilities{Fs: &acpv1.FileSystemCapabilities{ReadTextFile: &o.Read, WriteTextFile: &o.Write}}
	c.Terminal = &o.Terminals
	return c
}

// v1Error is the answer to a refused request: -32602 with the refusal's
// data, -32002 with a missing file's URI, an *acpv1.Error as it is, and
// -32603 otherwise.
func v1Error(err error) error {
	var r *refusal
	var nf *notFound
	switch {
	case err == nil:
		return nil
	case errors.As(err, &r):
		return acpv1.NewInvalidParamsError(r.data())
	case errors.As(err, &nf):
		return acpv1.NewResourceNotFoundError(nf.uri())
	case errors.Is(err, context.Canceled):
		return acpv1.NewRequestCancelledError()
	}
	return err
}

// ReadTextFile serves fs/read_text_file: see Host.ReadFile.
func (v *V1) ReadTextFile(ctx context.Context, p *acpv1.ReadTextFileRequest) (*acpv1.ReadTextFileResponse, error) {
	if !v.h.opts.Read {
		return nil, acpv1.NewMethodNotFoundError(acpv1.MethodReadTextFile)
	}
	line, limit := 0, 0
	if p.Line != nil {
		if *p.Line == 0 {
			return nil, acpv1.NewInvalidParamsError(map[string]string{"line": "0", "reason": "lines are numbered from 1"})
		}
		line = int(*p.Line)
	}
	if p.Limit != nil {
		if *p.Limit == 0 {
			return acpv1.NewReadTextFileResponse(""), nil
		}
		limit = int(*p.Limit)
	}
	text, err := v.h.ReadFile(string(p.SessionID), p.Path, line, limit)
	if err != nil {
		return nil, v1Error(err)
	}
	return acpv1.NewReadTextFileResponse(text), nil
}

// WriteTextFile serves fs/write_text_file: see Host.WriteFile.
func (v *V1) WriteTextFile(ctx context.Context, p *acpv1.WriteTextFileRequest) (*acpv1.WriteTextFileResponse, error) {
	if !v.h.opts.Write {
		return nil, acpv1.NewMethodNotFoundError(acpv1.MethodWriteTextFile)
	}
	if err := v.h.WriteFile(string(p.SessionID), p.Path, p.Content); err != nil {
		return nil, v1Error(err)
	}
	return acpv1.NewWriteTextFileResponse(), nil
}

// CreateTerminal serves terminal/create: see Host.CreateTerminal.
func (v *V1) CreateTerminal(ctx context.Context, p *acpv1.CreateTerminalRequest) (*acpv1.CreateTerminalResponse, error) {
	if !v.h.opts.Terminals {
		return nil, acpv1.NewMethodNotFoundError(acpv1.MethodCreateTerminal)
	}
	env := make([]Env, len(p.Env))
	for i, e := range p.Env {
		env[i] = Env{Name: e.Name, Value: e.Value}
	}
	cwd, limit := "", -1
	if p.Cwd != nil {
		cwd = *p.Cwd
	}
	if p.OutputByteLimit != nil && *p.OutputByteLimit < uint64(v.h.opts.MaxOutputBytes) {
		limit = int(*p.OutputByteLimit)
	}
	id, err := v.h.CreateTerminal(ctx, string(p.SessionID), p.Command, p.Args, env, cwd, limit)
	if err != nil {
		return nil, v1Error(err)
	}
	return acpv1.NewCreateTerminalResponse(acpv1.TerminalID(id)), nil
}

// TerminalOutput serves terminal/output: see Host.TerminalOutput.
func (v *V1) TerminalOutput(ctx context.Context, p *acpv1.TerminalOutputRequest) (*acpv1.TerminalOutputResponse, error) {
	if !v.h.opts.Terminals {
		return nil, acpv1.NewMethodNotFoundError(acpv1.MethodTerminalOutput)
	}
	out, truncated, status, err := v.h.TerminalOutput(string(p.SessionID), string(p.TerminalID))
	if err != nil {
		return nil, v1Error(err)
	}
	r := acpv1.NewTerminalOutputResponse(out, truncated)
	if status != nil {
		r.ExitStatus = &acpv1.TerminalExitStatus{ExitCode: status.Code, Signal: status.Signal}
	}
	return r, nil
}

// WaitForTerminalExit serves terminal/wait_for_exit: see
// Host.WaitForTerminalExit.
func (v *V1) WaitForTerminalExit(ctx context.Context, p *acpv1.WaitForTerminalExitRequest) (*acpv1.WaitForTerminalExitResponse, error) {
	if !v.h.opts.Terminals {
		return nil, acpv1.NewMethodNotFoundError(acpv1.MethodWaitForTerminalExit)
	}
	status, err := v.h.WaitForTerminalExit(ctx, string(p.SessionID), string(p.TerminalID))
	if err != nil {
		return nil, v1Error(err)
	}
	r := acpv1.NewWaitForTerminalExitResponse()
	r.ExitCode, r.Signal = status.Code, status.Signal
	return r, nil
}

// KillTerminal serves terminal/kill: see Host.KillTerminal.
func (v *V1) KillTerminal(ctx context.Context, p *acpv1.KillTerminalRequest) (*acpv1.KillTerminalResponse, error) {
	if !v.h.opts.Terminals {
		return nil, acpv1.NewMethodNotFoundError(acpv1.MethodKillTerminal)
	}
	if err := v.h.KillTerminal(string(p.SessionID), string(p.TerminalID)); err != nil {
		return nil, v1Error(err)
	}
	return acpv1.NewKillTerminalResponse(), nil
}

// ReleaseTerminal serves terminal/release: see Host.ReleaseTerminal.
func (v *V1) ReleaseTerminal(ctx context.Context, p *acpv1.ReleaseTerminalRequest) (*acpv1.ReleaseTerminalResponse, error) {
	if !v.h.opts.Terminals {
		return nil, acpv1.NewMethodNotFoundError(acpv1.MethodReleaseTerminal)
	}
	if err := v.h.ReleaseTerminal(string(p.SessionID), string(p.TerminalID)); err != nil {
		return nil, v1Error(err)
	}
	return acpv1.NewReleaseTerminalResponse(), nil
}
