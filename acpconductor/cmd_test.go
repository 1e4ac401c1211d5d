package acpconductor

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestExamplesClient: examples/client runs examples/agent through the
// program acpconductor, on stdio and over -listen, with the proxies' text
// first.
func TestExamplesClient(t *testing.T) {
	marker := fmt.Sprintf("[cmd-%d]", os.Getpid())
	conductor, client, agent := bin(t, "acpconductor"), bin(t, "client"), bin(t, "agent")
	want := "[b]\n" + marker + "\nhi\npermission: allow\nstop: end_turn\n"
	proxies := []string{goProxy(t, marker), nodeProxy(t, "[b]")}

	t.Run("stdio", func(t *testing.T) {
		args := append([]string{"-prompt", "hi", "--", conductor, "agent"}, append(proxies, quote(agent))...)
		out, err := exec.Command(client, args...).CombinedOutput()
		if err != nil || string(out) != want {
			t.Errorf("client: %v; it printed\n%s\nwant\n%s", err, out, want)
		}
		if left := processesWith(t, marker); len(left) > 0 {
			t.Errorf("processes left: %v", left)
		}
	})

	t.Run("listen", func(t *testing.T) {
		cmd := exec.Command(conductor, append([]string{"-listen", "127.0.0.1:0", "agent"}, append(proxies, quote(agent))...)...)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		br := bufio.NewReader(stderr)
		line, err := br.ReadString('\n')
		url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
		if err != nil || !ok {
			t.Fatalf("the conductor wrote %q (%v)", line, err)
		}
		go func() {
			for {
				if _, err := br.ReadString('\n'); err != nil {
					return
				}
			}
		}()
		for range 2 {
			out, err := exec.Command(client, "-prompt", "hi", "-connect", url).CombinedOutput()
			if err != nil || string(out) != want {
				t.Errorf("client -connect: %v; it printed\n%s\nwant\n%s", err, out, want)
			}
		}
		cmd.Process.Signal(syscall.SIGTERM)
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("the conductor: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("the conductor did not end after SIGTERM")
		}
		if left := processesWith(t, marker); len(left) > 0 {
			t.Errorf("processes left: %v", left)
		}
	})
}

// TestCommandLine: bad command lines are refused with exit status 2 and a
// message that says what is wrong.
func TestCommandLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "usage:"},
		{[]string{"agent"}, "no component"},
		{[]string{"relay", "x"}, `unknown mode "relay"`},
		{[]string{"agent", "'x"}, "component 1: the single quote"},
		{[]string{"agent", "./a", "  "}, "component 2: a component's command is empty"},
		{[]string{"-listen", ":0", "proxy", "./a"}, "-listen is for the agent mode"},
	} {
		var stderr strings.Builder
		code := Main(t.Context(), c.args, strings.NewReader(""), &strings.Builder{}, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("acpconductor %q: status %d, stderr %q; want 2 and %q", c.args, code, stderr.String(), c.want)
		}
	}
}

// TestConductorKilled: a conductor killed with SIGKILL, which cannot end
// its components, takes them down all the same (Linux's parent-death
// signal), a nested chain's included.
func TestConductorKilled(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	marker := fmt.Sprintf("[killed-%d]", os.Getpid())
	cmd := exec.Command(bin(t, "acpconductor"), "agent", goProxy(t, marker), nested(t, goProxy(t, marker)), quote(bin(t, "agent")))
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`+"\n")
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || !strings.Contains(line, `"result"`) {
		t.Fatalf("initialize: %q %v", line, err)
	}
	// The conductor, its proxy, the nested conductor and its proxy.
	if n := len(processesWith(t, marker)); n != 4 {
		t.Fatalf("%d processes of the chain run, want 4", n)
	}
	cmd.Process.Kill()
	cmd.Wait()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		left := processesWith(t, marker)
		if len(left) == 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("processes left 10 s after the conductor was killed: %v", left)
		}
	}
}
