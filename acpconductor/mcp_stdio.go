//go:build unstable_mcp_over_acp || unstable

package acpconductor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/acpgen/acpgen/acpmcp"
)

// EnvMCPAuthorization names the environment variable that carries the
// Authorization header of a bridged MCP server to "acpconductor mcp-stdio",
// which the bridge's stdio entries run: the token stays out of the
// command line.
const EnvMCPAuthorization = "ACPCONDUCTOR_MCP_AUTHORIZATION"

// stdioEntry is the "stdio" entry of mcpServers that serves a bridged
// server to an agent that takes no "http" ones: the command
// opts.MCPStdioCommand with the URL added, the token in its environment.
func stdioEntry(command []string, name, meta []byte, d acpmcp.HTTPDeclaration) []byte {
	out := append([]byte(`{"type":"stdio","name":`), name...)
	cmd, _ := json.Marshal(command[0])
	args, _ := json.Marshal(append(append([]string{}, command[1:]...), d.URL))
	auth, _ := json.Marshal(d.Authorization)
	out = append(append(out, `,"command":`...), cmd...)
	out = append(append(out, `,"args":`...), args...)
	out = append(append(out, `,"env":[{"name":"`+EnvMCPAuthorization+`","value":`...), auth...)
	out = append(out, "}]"...)
	if meta != nil {
		out = append(append(out, `,"_meta":`...), meta...)
	}
	return append(out, '}')
}

// mcpStdio runs "acpconductor mcp-stdio URL": an MCP server on stdin and
// stdout for an agent that starts it, which posts each request it reads
// to the bridge's Streamable HTTP endpoint URL, with the headers that
// mirror it and the Authorization of $ACPCONDUCTOR_MCP_AUTHORIZATION, and
// writes the messages of each answer, JSON or an event stream, as lines.
// A notifications/cancelled cancels the request it names; other
// notifications and responses are not forwarded (the bridge serves
// requests only). It ends when stdin ends.
func mcpStdio(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: acpconductor mcp-stdio URL (with $"+EnvMCPAuthorization+")")
		return 2
	}
	s := &stdioShim{url: args[0], auth: os.Getenv(EnvMCPAuthorization), out: bufio.NewWriter(stdout), cancels: map[string]context.CancelFunc{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	br := bufio.NewReaderSize(stdin, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if line = bytes.TrimSpace(line); len(line) > 0 {
			s.handle(ctx, &wg, line)
		}
		if err != nil {
			break
		}
	}
	cancel()
	wg.Wait()
	return 0
}

// stdioShim is the state of mcpStdio.
type stdioShim struct {
	url, auth string
	mu        sync.Mutex // for out and cancels
	out       *bufio.Writer
	cancels   map[string]context.CancelFunc // the requests posted, by id
}

// stdioMessage is what the shim reads of a message.
type stdioMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage            `json:"requestId"`
		Name      string                     `json:"name"`
		URI       string                     `json:"uri"`
		Meta      map[string]json.RawMessage `json:"_meta"`
	} `json:"params"`
}

// handle posts a request in a goroutine of its own, and cancels one for
// notifications/cancelled.
func (s *stdioShim) handle(ctx context.Context, wg *sync.WaitGroup, line []byte) {
	var m stdioMessage
	if err := json.Unmarshal(line, &m); err != nil {
		s.write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`))
		return
	}
	if m.Method == "" || m.ID == nil {
		if m.Method == "notifications/cancelled" {
			s.mu.Lock()
			if cancel := s.cancels[string(m.Params.RequestID)]; cancel != nil {
				cancel()
			}
			s.mu.Unlock()
		}
		return
	}
	rctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.cancels[string(m.ID)] = cancel
	s.mu.Unlock()
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.post(rctx, &m, line)
		s.mu.Lock()
		delete(s.cancels, string(m.ID))
		s.mu.Unlock()
		cancel()
	}()
}

// post sends one request and writes the messages of its answer.
func (s *stdioShim) post(ctx context.Context, m *stdioMessage, body []byte) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		s.fail(m.ID, err)
		return
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	h.Set("Authorization", s.auth)
	h.Set("Mcp-Method", m.Method)
	var version string
	if json.Unmarshal(m.Params.Meta[acpmcp.MetaProtocolVersion], &version) == nil {
		h.Set("Mcp-Protocol-Version", version)
	}
	switch m.Method {
	case "tools/call", "prompts/get":
		h.Set("Mcp-Name", m.Params.Name)
	case "resources/read":
		h.Set("Mcp-Name", m.Params.URI)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			s.fail(m.ID, err)
		}
		return
	}
	defer resp.Body.Close()
	media, _, _ := strings.Cut(resp.Header.Get("Content-Type"), ";")
	if strings.TrimSpace(media) != "text/event-stream" {
		b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
		if err != nil || !json.Valid(b) {
			s.fail(m.ID, fmt.Errorf("the bridge answered %s", resp.Status))
			return
		}
		s.write(b)
		return
	}
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadBytes('\n')
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			s.write(bytes.TrimSpace(data))
		}
		if err != nil {
			return
		}
	}
}

// fail answers the request id with an error of the shim's own.
func (s *stdioShim) fail(id json.RawMessage, err error) {
	text, _ := json.Marshal("the conductor's MCP bridge: " + err.Error())
	s.write([]byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":-32603,"message":` + string(text) + `}}`))
}

// write writes one message as a line.
func (s *stdioShim) write(msg []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.Write(msg)
	s.out.WriteByte('\n')
	s.out.Flush()
}
