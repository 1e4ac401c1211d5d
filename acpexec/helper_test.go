//go:build unix

package acpexec

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/acpgen/acpgen/internal/reexec"
)

// agentEnv names the test agent a re-executed test binary plays.
const agentEnv = "ACPEXEC_TEST_AGENT"

func TestMain(m *testing.M) { reexec.Main(m, agentEnv, testAgent) }

// agentCmd returns the command that runs the test binary as the test agent
// of mode.
func agentCmd(t *testing.T, mode string) *exec.Cmd { return reexec.Command(t, agentEnv, mode) }

// testAgent is the agent of each mode:
//   - echo: writes each line of its input back, and exits 0 at its end;
//   - ignore-eof: echoes, then keeps running after the end of its input,
//     until a signal ends it;
//   - ignore-term: echoes, keeps running and ignores SIGTERM;
//   - grandchild: starts a grandchild that holds its output open and
//     ignores SIGTERM, writes the grandchild's pid, and exits 0 at the end
//     of its input;
//   - exit3: writes three lines to standard error and exits 3 at once;
//   - stderr: writes "one" and "two" to standard error and "out" to its
//     output, then echoes.
func testAgent(mode string) {
	switch mode {
	case "exit3":
		fmt.Fprintln(os.Stderr, "starting")
		fmt.Fprintln(os.Stderr, "no credentials")
		fmt.Fprintln(os.Stderr, "giving up")
		os.Exit(3)
	case "sleeper":
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(time.Hour)
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM)
	case "stderr":
		fmt.Fprintln(os.Stderr, "one")
		fmt.Fprintln(os.Stderr, "two")
		fmt.Println("out")
	case "grandchild":
		gc, err := reexec.Cmd(agentEnv, "sleeper")
		if err != nil {
			os.Exit(5)
		}
		gc.Stdout = os.Stdout
		if err := gc.Start(); err != nil {
			os.Exit(5)
		}
		fmt.Println(gc.Process.Pid)
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		fmt.Println(sc.Text())
	}
	if mode == "ignore-eof" || mode == "ignore-term" {
		time.Sleep(time.Hour)
	}
}
