package conntest

import (
	"bufio"
	"io"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/acpgen/acpgen/internal/node"
)

// MatchesTypeScript sends each line, one at a time, to the test agent of
// pkg (uninitialized) and to an agent written with the TypeScript SDK (the
// script under interop/), and expects the same answer from both, byte for
// byte; a line that neither answers is followed by the next, and one
// answered "any" may be answered differently. It skips without node.
func MatchesTypeScript(t *testing.T, pkg *Package, script string, lines []Line) {
	nodeBin := node.Require(t)
	cmd := exec.Command(nodeBin, filepath.Join(node.Dir(), script))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); _ = cmd.Wait() })
	ts := bufio.NewScanner(out)
	peer := NewRawAgentPeer(t, pkg, &Handlers{}, true)
	for _, l := range lines {
		peer.Send(l[0])
		if _, err := io.WriteString(in, l[0]+"\n"); err != nil {
			t.Fatal(err)
		}
		if l[1] == "" {
			continue
		}
		goLine := peer.Recv()
		if !ts.Scan() {
			t.Fatalf("%s: the TypeScript agent answered nothing: %v", script, ts.Err())
		}
		if l[1] == "any" {
			continue
		}
		if goLine != ts.Text() {
			t.Errorf("%s\nGo:         %s\nTypeScript: %s", l[0], goLine, ts.Text())
		}
		if goLine != l[1] {
			t.Errorf("%s\n got %s\nwant %s", l[0], goLine, l[1])
		}
	}
}
