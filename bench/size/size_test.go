package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain runs the test binary as the -toolexec wrapper when the go
// command runs it so, as it runs the program.
func TestMain(m *testing.M) {
	if os.Getenv(logEnv) != "" {
		os.Exit(toolexec(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func TestParseTimings(t *testing.T) {
	want := []timing{
		{Tool: "compile", ImportPath: "example.com/p", User: 1500 * time.Millisecond, Sys: 20 * time.Millisecond, Wall: time.Second},
		{Tool: "vet", ImportPath: "example.com/p [example.com/p.test]", User: 3, Sys: 0, Wall: 7},
	}
	var log strings.Builder
	for _, ti := range want {
		log.WriteString(ti.String() + "\n")
	}
	got, err := parseTimings(strings.NewReader(log.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d timings, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("timing %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if got[0].CPU() != 1520*time.Millisecond {
		t.Errorf("CPU: got %v, want 1.52s", got[0].CPU())
	}
	for _, bad := range []string{"compile\tp\t1\t2\n", "compile\tp\t1\tx\t3\n", "compile\tp\t-1\t2\t3\n"} {
		if _, err := parseTimings(strings.NewReader(bad)); err == nil {
			t.Errorf("parseTimings(%q): no error", bad)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []time.Duration
		want time.Duration
	}{{nil, 0}, {[]time.Duration{3}, 3}, {[]time.Duration{5, 1, 3}, 3}, {[]time.Duration{4, 1, 3, 2}, 2}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestCompile builds one small package once, through the wrapper, and
// checks the timing of its compile.
func TestCompile(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{self: self, dir: t.TempDir()}
	const pkg = "github.com/acpgen/acpgen/bench/workload"
	got, err := r.compile(pkg, "", time.Now().UnixNano())
	if err != nil {
		t.Fatal(err)
	}
	if got.Tool != "compile" || got.ImportPath != pkg || got.CPU() <= 0 || got.Wall <= 0 {
		t.Errorf("timing of the compile of %s: %+v", pkg, got)
	}
	lines, err := r.lines(pkg, "")
	if err != nil || lines < 100 {
		t.Errorf("lines of %s: %d, %v; want 100 or more", pkg, lines, err)
	}
}

// TestAgents runs both minimal agents on the same three requests and checks
// that they do the same: answer each, and echo the prompt in one chunk.
func TestAgents(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two executables")
	}
	for _, agent := range []string{"acpgenagent", "coderagent"} {
		t.Run(agent, func(t *testing.T) {
			exe := filepath.Join(t.TempDir(), agent)
			if out, err := exec.Command("go", "build", "-o", exe, "./"+agent).CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			checkEcho(t, exe)
		})
	}
}

// checkEcho sends the agent exe initialize, session/new and a prompt, and
// checks its answers.
func checkEcho(t *testing.T, exe string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}
{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}
{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"hello"}]}}
`)
	answered, echoed := map[int]bool{}, false
	sc := bufio.NewScanner(stdout)
	for len(answered) < 3 && sc.Scan() {
		var msg message
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		switch {
		case msg.Method == "session/update":
			u := msg.Params.Update
			echoed = u.Kind == "agent_message_chunk" && u.Content.Type == "text" && u.Content.Text == "hello"
		case msg.ID == 2 && msg.Result.SessionID != "sess_1", msg.ID == 3 && msg.Result.StopReason != "end_turn":
			t.Errorf("unexpected answer: %s", sc.Text())
		case msg.ID == 3 && !echoed:
			t.Errorf("the prompt ended before its chunk")
		}
		if msg.ID > 0 {
			answered[msg.ID] = true
		}
	}
	if len(answered) < 3 || !echoed {
		t.Errorf("answered %v, echoed %v", answered, echoed)
	}
}

// message holds what checkEcho reads of the agents' messages.
type message struct {
	ID     int    `json:"id"`
	Method string `json:"method"`
	Params struct {
		Update struct {
			Kind    string `json:"sessionUpdate"`
			Content struct{ Type, Text string }
		}
	}
	Result struct {
		SessionID  string `json:"sessionId"`
		StopReason string `json:"stopReason"`
	}
}
