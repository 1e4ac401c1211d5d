package acpinspect

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// The test binary is also the agent the tap tests run: with
// ACPINSPECT_TEST_AGENT=echo it writes every line of its input back to its
// output, and a line of standard error for every thousandth.
func TestMain(m *testing.M) {
	switch os.Getenv("ACPINSPECT_TEST_AGENT") {
	case "echo":
		echoAgent()
		os.Exit(0)
	case "":
		os.Exit(m.Run())
	default:
		fmt.Fprintln(os.Stderr, "unknown ACPINSPECT_TEST_AGENT")
		os.Exit(2)
	}
}

func echoAgent() {
	r := bufio.NewReaderSize(os.Stdin, 1<<20)
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			w.Write(line)
			if r.Buffered() == 0 {
				w.Flush()
			}
		}
		if n%1000 == 0 {
			fmt.Fprintf(os.Stderr, "echoed %d lines\n", n)
		}
		if err != nil {
			w.Flush()
			return
		}
	}
}

// agentCommand is the command that runs the test binary as the agent kind.
func agentCommand(t testing.TB, kind string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "ACPINSPECT_TEST_AGENT="+kind)
	return cmd
}

// frames is a Recorder that keeps what it is handed.
type frames struct {
	mu sync.Mutex
	fs []Frame
}

func (f *frames) Record(fr Frame) {
	f.mu.Lock()
	f.fs = append(f.fs, fr)
	f.mu.Unlock()
}

func (f *frames) from(s Sender) []Frame {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Frame
	for _, fr := range f.fs {
		if fr.From == s {
			out = append(out, fr)
		}
	}
	return out
}
