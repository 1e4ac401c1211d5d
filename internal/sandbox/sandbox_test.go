package sandbox

import (
	"context"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpexec"
)

// run runs the shell script in the sandbox under acpexec and returns its
// output.
func run(t *testing.T, s *Sandbox, script string) string {
	t.Helper()
	p, err := acpexec.Start(context.Background(), s.Command("sh", "-c", script), &acpexec.Options{Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	out := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(p)
		out <- b
	}()
	select {
	case b := <-out:
		return string(b)
	case <-time.After(10 * time.Second):
		t.Fatal("the sandboxed script did not end")
		return ""
	}
}

func TestEnvironment(t *testing.T) {
	t.Setenv("ACPGEN_SANDBOX_SECRET", "key")
	s := New(t)
	out := run(t, s, `env; echo "cwd=$(pwd)"`)
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if name, _, ok := strings.Cut(line, "="); ok && name != "cwd" && name != "PWD" && name != "SHLVL" && name != "_" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); got != "HOME PATH TMPDIR" {
		t.Errorf("the sandbox's environment has %s, want HOME PATH TMPDIR", got)
	}
	for _, want := range []string{"HOME=" + s.Home + "\n", "cwd=" + s.Dir + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output %q lacks %q", out, want)
		}
	}
	if _, err := os.Stat(s.Home); err != nil {
		t.Error(err)
	}
}

// TestNetwork: the namespace holds the loopback interface alone, and it is
// up (as ip tells, where there is ip: /sys shows the namespace of whoever
// mounted it, not the sandbox's).
func TestNetwork(t *testing.T) {
	s := New(t)
	out := run(t, s, `tail -n +3 /proc/self/net/dev | cut -d: -f1 | tr -d ' '; echo ip; ip -o link show lo 2>/dev/null`)
	ifaces, ip, _ := strings.Cut(out, "ip\n")
	if strings.TrimSpace(ifaces) != "lo" {
		t.Fatalf("the sandbox's interfaces: %q, want lo alone", ifaces)
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Log("no ip command here: not checking that lo is up")
		return
	}
	flags, _, _ := strings.Cut(ip, ">")
	if !strings.Contains(flags+",", ",UP,") {
		t.Errorf("lo is not up in the sandbox: %q", ip)
	}
}
