package acpcheck

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpexec"
	"github.com/acpgen/acpgen/internal/sandbox"
)

// TestCodexACP checks codex-acp, an agent built on the Rust reference
// crate (interop/thirdparty), in the sandbox with no network and no key,
// without prompts. It wants authentication before session/new, so only
// negotiation and JSON-RPC hygiene are exercised, and the kit finds what
// docs/acpcheck.md lists: an unknown notification answered with an error
// that has no id, a parse error answered without an id (JSON-RPC asks for
// null), no answer to a request whose method is a number, and no exit at
// the end of its input.
func TestCodexACP(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a third-party agent")
	}
	script := sandbox.ThirdParty(t, "@zed-industries/codex-acp/bin/codex-acp.js")
	s := sandbox.New(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r := CheckAgent(ctx, &CommandTarget{Path: "node", Args: []string{script}, Make: s.Command}, AgentOptions{NoPrompt: true})
	status := map[ID]Status{}
	for _, v := range r.Verdicts {
		if v.Version != 2 {
			status[v.ID] = v.Status
		}
	}
	want := map[ID]Status{
		AgentInitVersionEcho:        Pass,
		AgentInitVersionUnsupported: Pass,
		AgentRPCIDString:            Pass,
		AgentRPCMethodNotFound:      Pass,
		AgentSchemaValid:            Pass,
		AgentSessionNew:             NotExercised,
		AgentRPCNotificationSilent:  Fail,
		AgentRPCParseError:          Fail,
		AgentRPCInvalidRequest:      Fail,
		AgentStdioEOFExit:           Fail,
	}
	for id, st := range want {
		if status[id] != st {
			t.Errorf("%s: %q, want %q (update docs/acpcheck.md if codex-acp changed)", id, status[id], st)
		}
	}
	if t.Failed() {
		t.Log(r.Text())
	}
}

// TestAcpx checks acpx, a command-line client (interop/thirdparty), in
// client mode: acpx launches the kit as its agent, in the sandbox, and
// holds every MUST, with the file system (a read, and a write in the
// sandbox's work directory read back) and terminal it advertises.
func TestAcpx(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a third-party client")
	}
	cli := sandbox.ThirdParty(t, "acpx/dist/cli.js")
	kit := buildExample(t, "acpcheck")
	s := sandbox.New(t)
	report := filepath.Join(t.TempDir(), "report.json")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := s.Command("node", cli, "--agent", kit+" client -report /dev/null -json "+report,
		"--approve-all", "--format", "json", "--timeout", "20", "exec", "hello")
	p, err := acpexec.Start(ctx, cmd, &acpexec.Options{Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, p)
	_ = p.Close()
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("no report: %v", err)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if !r.OK() {
		t.Fatalf("a MUST failed:\n%s", data)
	}
	for _, id := range []ID{ClientFSRead, ClientFSWrite, ClientFSReadBack, ClientTerminal, ClientPermissionAnswer, ClientUpdatesUnknownV1} {
		if vs := r.Find(id); len(vs) != 1 || vs[0].Status != Pass {
			t.Errorf("%s: %+v", id, vs)
		}
	}
}
