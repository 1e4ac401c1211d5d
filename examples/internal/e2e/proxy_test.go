//go:build unix

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpexec"
	"github.com/acpgen/acpgen/internal/sandbox"
)

var (
	proxyOnce sync.Once
	proxyBin  string
	proxyErr  error
)

// proxyBinary builds examples/proxy once and returns its path.
func proxyBinary(t *testing.T) string {
	t.Helper()
	binaries(t) // makes binDir
	proxyOnce.Do(func() {
		proxyBin = filepath.Join(binDir, "proxy")
		if out, err := exec.Command("go", "build", "-o", proxyBin, "../../proxy").CombinedOutput(); err != nil {
			proxyErr = &buildError{"proxy", err, out}
		}
	})
	if proxyErr != nil {
		t.Fatal(proxyErr)
	}
	return proxyBin
}

// chainTurn runs one prompt "hello" through @thinkwell/conductor 0.5.7 with
// the components given (proxies, then examples/agent) as a client of
// protocol version v, and returns the texts of the agent's message chunks,
// in order, once the turn has ended with end_turn.
func chainTurn(t *testing.T, v int, components ...string) []string {
	t.Helper()
	s := sandbox.New(t)
	sandbox.ThirdParty(t, "@thinkwell/conductor/dist/index.js")
	script := filepath.Join(sandbox.ThirdPartyDir(), "conductor.mjs")
	agent, _ := binaries(t)
	args := append([]string{script}, components...)
	p, err := acpexec.Start(context.Background(), s.Command("node", append(args, agent)...), &acpexec.Options{Stderr: logWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(p)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	send := func(line string) {
		if _, err := p.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.After(30 * time.Second)
	next := func() map[string]any {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("the conductor's output ended")
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("the conductor wrote %q: %v", line, err)
			}
			return m
		case <-deadline:
			t.Fatal("no answer from the chain within 30 s")
		}
		return nil
	}
	if v == 1 {
		send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	} else {
		send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"}}}`)
	}
	if m := next(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	} else if pv := m["result"].(map[string]any)["protocolVersion"]; pv != float64(v) {
		t.Fatalf("initialize: protocol version %v", pv)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`)
	m := next()
	sid, _ := m["result"].(map[string]any)["sessionId"].(string)
	if sid == "" {
		t.Fatalf("session/new: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"` + sid + `","prompt":[{"type":"text","text":"hello"}]}}`)
	var chunks []string
	for {
		m := next()
		if m["method"] == "session/request_permission" {
			id, _ := json.Marshal(m["id"])
			send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}`)
			continue
		}
		if params, ok := m["params"].(map[string]any); ok && m["method"] == "session/update" {
			u := params["update"].(map[string]any)
			if u["sessionUpdate"] == "agent_message_chunk" {
				chunks = append(chunks, u["content"].(map[string]any)["text"].(string))
			}
			if u["stopReason"] == "end_turn" { // v2: the turn ends idle
				return chunks
			}
			continue
		}
		if r, ok := m["result"].(map[string]any); ok && m["id"] == float64(2) && v == 1 {
			if r["stopReason"] != "end_turn" {
				t.Fatalf("the prompt ended %v", r)
			}
			return chunks
		}
		if m["error"] != nil {
			t.Fatalf("the chain answered %v", m)
		}
	}
}

// TestProxyUnderThinkwellConductor: examples/proxy, one and two hops, under
// @thinkwell/conductor 0.5.7 in front of examples/agent, for a v1 and a v2
// client: the agent echoes the injected blocks before the prompt, the
// last proxy's first, and ends the turn.
func TestProxyUnderThinkwellConductor(t *testing.T) {
	proxy := proxyBinary(t)
	for _, v := range []int{1, 2} {
		for _, tc := range []struct {
			name       string
			components []string
			want       []string
		}{
			{"no flag", []string{proxy}, []string{"hello"}},
			{"one hop", []string{proxy + " -inject [ctx]"}, []string{"[ctx]", "hello"}},
			{"two hops", []string{proxy + " -inject [a]", proxy + " -inject '[b] <&>'"}, []string{"[b] <&>", "[a]", "hello"}},
		} {
			t.Run(tc.name+"/v"+string(rune('0'+v)), func(t *testing.T) {
				got := chainTurn(t, v, tc.components...)
				want := append(tc.want, "permission: allow")
				if !slices.Equal(got, want) {
					t.Errorf("the agent's chunks: %q, want %q", got, want)
				}
				if strings.Contains(strings.Join(got, ""), `\u003c`) {
					t.Error("the injected text was escaped")
				}
			})
		}
	}
}
