// Package sandbox runs third-party programs in tests with no network: in a
// network namespace of their own with only the loopback interface (made
// with unshare -n, or unshare -rn where an unprivileged user may create a
// user namespace), with an empty environment but for PATH, HOME and TMPDIR,
// a temporary HOME and working directory, and no keys.
//
// A Sandbox makes *exec.Cmd values for acpexec.Start, which runs each in a
// process group of its own and ends every process of it by its id. On a
// system where no network namespace can be made (not Linux, no unshare, no
// permission), New skips the test, saying why.
package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Sandbox is a temporary HOME and working directory, and the commands that
// run programs there with no network.
type Sandbox struct {
	// Home is the temporary HOME, Dir the temporary working directory, both
	// removed when the test ends.
	Home, Dir string
	// Env is the whole environment of the programs: PATH, HOME and TMPDIR,
	// to which a test may append what a program requires (never a key).
	Env []string
	// prefix is the unshare command and its flags.
	prefix []string
}

// New returns a sandbox for the test, or skips the test when no network
// namespace can be made here. PATH holds the directory of node when node
// is installed, then /usr/bin and /bin.
func New(t testing.TB) *Sandbox {
	t.Helper()
	prefix, err := available()
	if err != nil {
		t.Skipf("no sandbox for third-party programs: %v", err)
	}
	root := t.TempDir()
	s := &Sandbox{Home: filepath.Join(root, "home"), Dir: filepath.Join(root, "work"), prefix: prefix}
	tmp := filepath.Join(root, "tmp")
	for _, d := range []string{s.Home, s.Dir, tmp} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	path := []string{"/usr/bin", "/bin"}
	if node, err := exec.LookPath("node"); err == nil {
		path = append([]string{filepath.Dir(node)}, path...)
	}
	s.Env = []string{"PATH=" + strings.Join(path, ":"), "HOME=" + s.Home, "TMPDIR=" + tmp}
	return s
}

// Node returns the path of node, or skips the test when node is not
// installed.
func Node(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found: the tests of third-party programs need it")
	}
	return node
}

// Command returns the command that runs name with args in the sandbox: in a
// new network namespace whose loopback interface is up, with the sandbox's
// environment and working directory. name is looked up in the sandbox's
// PATH unless it holds a slash. The command execs the program, so the
// process acpexec starts is the program itself (its id is the group's).
func (s *Sandbox) Command(name string, args ...string) *exec.Cmd {
	// sh brings lo up (with ip, or ifconfig, when there is one: without
	// either, the namespace has no network at all) and execs the program.
	const script = `ip link set lo up 2>/dev/null || ifconfig lo up 2>/dev/null; exec "$@"`
	argv := append(append(append([]string{}, s.prefix[1:]...), "/bin/sh", "-c", script, "sh", name), args...)
	cmd := exec.Command(s.prefix[0], argv...)
	cmd.Env = append([]string{}, s.Env...)
	cmd.Dir = s.Dir
	return cmd
}

var (
	availableOnce   sync.Once
	availablePrefix []string
	availableErr    error
)

// available finds the unshare command that makes a network namespace here,
// trying unshare -n and then unshare -rn once per process.
func available() ([]string, error) {
	availableOnce.Do(func() {
		if runtime.GOOS != "linux" {
			availableErr = fmt.Errorf("network namespaces are Linux's, not %s's", runtime.GOOS)
			return
		}
		unshare, err := exec.LookPath("unshare")
		if err != nil {
			availableErr = fmt.Errorf("unshare not found (util-linux)")
			return
		}
		var msgs []string
		for _, flags := range [][]string{{"-n"}, {"-r", "-n"}} {
			out, err := exec.Command(unshare, append(flags, "/bin/sh", "-c", "true")...).CombinedOutput()
			if err == nil {
				availablePrefix = append([]string{unshare}, flags...)
				return
			}
			msgs = append(msgs, fmt.Sprintf("unshare %s: %v %s", strings.Join(flags, " "), err, strings.TrimSpace(string(out))))
		}
		availableErr = fmt.Errorf("%s", strings.Join(msgs, "; "))
	})
	return availablePrefix, availableErr
}
