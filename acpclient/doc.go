// Package acpclient does a client's duties to an agent that the schema
// describes but leaves to the client: it serves the agent's file requests
// (fs/read_text_file, fs/write_text_file) confined to each session's
// working directory, and its terminal requests (terminal/create, output,
// wait_for_exit, kill, release) by really running the commands, each in a
// process group of its own supervised by package acpexec.
//
// A Host keeps the sessions the client opened and their directories; its
// Middleware learns them by itself from the client's session/new,
// session/load and session/resume calls (or call Open). V1 adapts the Host
// to acpv1's optional Client interfaces: embed it in a Client, advertise
// V1.Capabilities in initialize, and the agent's requests are served. The
// capabilities say exactly what Options serve: a method not served answers
// "method not found".
//
// Turns cancels v1 prompt turns the protocol's way: session/cancel, the
// turn's permission requests answered cancelled, the agent's stop reason
// returned.
//
// WatchV1 reports the agent's messages that the client connection drops
// without an answer (notifications whose params do not fit, oversize
// lines), with their method and reason.
//
// OverV2 lets a client written once, against acpv1, speak to v2 agents
// too, through convert's Bridge: with acplaunch.Start (or
// convert.Negotiate), the same client serves either version. OverV1 is the
// other direction: a client written against acpv2 drives a v1 agent, its
// updates converted to v2.
//
// # Files
//
// Every path is resolved inside the session's directory with an os.Root:
// a path that is not absolute, that has a ".." element, that lies outside
// the directory, or that leads out of it through a symbolic link is refused
// with -32602 (invalid params) and data {"path": PATH, "reason": WHY}. A
// file that does not exist answers -32002 (resource not found) with its
// file:// URI. fs/read_text_file honours line (numbered from 1) and limit
// (a number of lines); a file larger than Options.MaxFileBytes, a directory
// and a file that is not UTF-8 text are refused. fs/write_text_file creates
// the file and its missing parent directories.
//
// # Terminals
//
// terminal/create runs the command with its arguments (no shell), the
// client's environment plus the request's variables, in the request's cwd
// (confined as a path is) or the session's directory, with its standard
// input closed and its standard error merged into its output. The output
// keeps at most the request's outputByteLimit bytes (and never more than
// Options.MaxOutputBytes), cut from the beginning at a character boundary;
// truncated says so. The exit status is the exit code, or the name of the
// signal ("SIGKILL") that ended the command. terminal/kill ends the
// command's whole process group (SIGTERM, then SIGKILL after
// Options.KillGrace) and keeps its output; terminal/release kills it too
// and forgets the terminal. Closing a session, or the Host, releases its
// terminals: no process outlives them.
//
// A terminal runs with the client's own rights: the directory confinement
// is its working directory's, not a sandbox. Ask the user before the agent
// runs commands (Options.Approve) when that matters.
package acpclient
