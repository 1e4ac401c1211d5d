// Package acpexec starts an agent command and supervises it: the process
// that a client talks ACP to over its standard input and output.
//
// Start runs the command in a process group of its own, with its standard
// input and output as the two ends of the connection (a *Process is an
// io.Reader of the agent's output and an io.Writer to its input) and its
// standard error sent, line by line, to a writer or an *slog.Logger of the
// caller's choice, never mixed into the protocol. The last lines of
// standard error are kept for the error an agent that exits early gives
// (see ExitError and Process.Explain).
//
// Close ends the agent and everything it started, and never hangs: it
// closes the agent's input, waits a grace period (Options.Grace, 1 s by
// default) for the agent to exit, sends SIGTERM to the whole process group,
// waits again (Options.TermGrace, 2 s by default), sends SIGKILL to the
// group, and reaps the agent. A grandchild that holds the agent's output
// open, or an agent that ignores the end of its input or SIGTERM, is ended
// the same way.
//
// On Linux, macOS and the other Unix systems the process group is made
// with syscall.SysProcAttr.Setpgid. On other systems (Windows, Plan 9,
// js/wasm and wasip1) the package builds, but there is no process group:
// Close closes the input, waits the grace period and then kills the agent
// process alone, so that a process the agent started can outlive it.
//
// The package knows nothing of the protocol's messages; the packages that
// connect a client to the agent (acplaunch) are built on it.
package acpexec
