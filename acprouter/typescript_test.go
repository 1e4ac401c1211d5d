package acprouter_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acprouter"
	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
	"github.com/acpgen/acpgen/generated/convert"
	"github.com/acpgen/acpgen/internal/node"
)

// routerCase is a connection's input lines and the versions its router
// serves.
type routerCase struct {
	Name     string   `json:"name"`
	Versions []string `json:"versions"`
	Lines    []string `json:"lines"`
}

// exact names the cases whose lines must also be equal as JSON values: a
// v2 initialize rewritten for a v1 agent.
var exact = map[string]bool{
	"v1 only, v2 client":                          true,
	"v1 only, newer client without info":          true,
	"v1 only, newer client with bad capabilities": true,
}

func init1(id string, params string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"initialize","params":` + params + `}`
}

var both = []string{"v1", "v2"}

// routerCases are the cases run through acprouter and through the
// TypeScript SDK's router.
var routerCases = []routerCase{
	{"not messages", both, []string{`not json`, `[1,2]`, `[]`, `5`, `null`, `"s"`, `true`, ``, `   `,
		init1("1", `{"protocolVersion":1}`)}},
	{"ignored before initialize", both, []string{
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"x"}}`,
		`{"jsonrpc":"2.0","id":7,"result":{}}`,
		`{"jsonrpc":"2.0","id":8,"error":{"code":1,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":9}`, `{"result":1}`, `{"error":null}`,
		init1("1", `{"protocolVersion":2,"info":{"name":"c","version":"1"}}`)}},
	{"other requests refused", both, []string{
		`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`,
		`{"jsonrpc":"2.0","id":"a","method":"session/prompt"}`,
		`{"jsonrpc":"2.0","id":null,"method":"x"}`,
		`{"id":1,"method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"1.0","method":"initialize"}`,
		`{"jsonrpc":"2.0","id":1,"method":5}`,
		`{"jsonrpc":"2.0","id":{},"method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","id":true,"method":"initialize","params":{"protocolVersion":1}}`,
		`{"foo":1}`,
		init1("2", `{"protocolVersion":1}`)}},
	{"bad initialize", both, []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize"}`,
		init1("2", `[]`), init1("3", `"x"`), init1("4", `{}`),
		init1("5", `{"protocolVersion":"1"}`), init1("6", `{"protocolVersion":1.5}`),
		init1("7", `{"protocolVersion":-1}`), init1("8", `{"protocolVersion":65536}`),
		init1("9", `{"protocolVersion":null}`),
		init1("10", `{"protocolVersion":0}`),
		init1("11", `{"protocolVersion":1,"clientCapabilities":5}`),
		init1("12", `{"protocolVersion":2}`),
		init1("13", `{"protocolVersion":1.0,"clientInfo":{"name":"c","version":"1"}}`),
		`{"jsonrpc":"2.0","id":14,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`,
		init1("15", `{"protocolVersion":2,"info":{"name":"c","version":"1"}}`)}},
	{"v2 only", []string{"v2"}, []string{
		init1("1", `{"protocolVersion":1}`), init1("2", `{"protocolVersion":0}`),
		init1("null", `{"protocolVersion":2,"info":{"name":"c","version":"1"}}`),
		init1("1.5", `{"protocolVersion":2,"info":{"name":"c","version":"1"}}`),
		init1(`"s"`, `{"protocolVersion":2,"info":{"name":"c","version":"1"},"capabilities":{"auth":{"terminal":{}}}}`),
		`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/"}}`}},
	{"v1 only takes every version", []string{"v1"}, []string{
		init1("1", `{"protocolVersion":"2"}`),
		init1("null", `{"protocolVersion":0,"clientCapabilities":{"fs":{"readTextFile":true}}}`),
		init1("3", `{"protocolVersion":1}`)}},
	{"v1 only, v2 client", []string{"v1"}, []string{
		init1("1", `{"protocolVersion":2,"info":{"name":"c","version":"1","title":"C"},"capabilities":{"auth":{"terminal":{},"_meta":{"k":1}},"elicitation":{"form":{}},"_meta":{"m":[1,2]}},"_meta":{"top":true}}`)}},
	{"v1 only, newer client without info", []string{"v1"}, []string{
		init1("1", `{"protocolVersion":9,"info":5,"capabilities":{}}`)}},
	{"v1 only, newer client with bad capabilities", []string{"v1"}, []string{
		init1("1", `{"protocolVersion":3,"capabilities":{"auth":7,"elicitation":"no"}}`)}},
	{"newer client to v2", both, []string{
		init1("1", `{"protocolVersion":3,"info":{"name":7},"capabilities":{"elicitation":{"url":{}}},"extra":1}`),
		init1("2", `{"protocolVersion":1}`),
		`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/"}}`}},
	{"v1 client on both", both, []string{
		init1("1", `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":false},"terminal":true}}`),
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"x"}}`,
		init1("2", `{"protocolVersion":2,"info":{"name":"c","version":"1"}}`)}},
	{"no initialize", both, []string{`{"jsonrpc":"2.0","method":"x"}`, `{"jsonrpc":"2.0","id":1,"method":"x"}`}},
}

// TestMatchesTypeScriptRouter runs routerCases through acprouter and through
// the TypeScript SDK's AgentProtocolRouter (interop/router.mjs), with stub
// agents that echo what they are handed, and compares the lines written. The
// initialize a stub is handed is compared as the picked version's generated
// package reads it, and the text that says why initialize params do not
// parse, which names the decoder's finding, is compared up to its prefix.
func TestMatchesTypeScriptRouter(t *testing.T) {
	nodeBin := node.Require(t)
	input, err := json.Marshal(routerCases)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeBin, filepath.Join(node.Dir(), "router.mjs"))
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("router.mjs: %v\n%s", err, stderr.Bytes())
	}
	var ts map[string][]string
	if err := json.Unmarshal(out, &ts); err != nil {
		t.Fatalf("router.mjs printed %s: %v", out, err)
	}
	for _, c := range routerCases {
		t.Run(c.Name, func(t *testing.T) {
			goLines := runGo(t, c)
			tsLines := ts[c.Name]
			if len(tsLines) == 0 && len(goLines) == 0 && c.Name != "no initialize" {
				t.Fatal("no output")
			}
			for i := 0; i < len(goLines) || i < len(tsLines); i++ {
				var g, s string
				if i < len(goLines) {
					g = goLines[i]
				}
				if i < len(tsLines) {
					s = tsLines[i]
				}
				if !reflect.DeepEqual(comparable(t, g), comparable(t, s)) {
					t.Errorf("line %d differs\nGo:         %s\nTypeScript: %s", i, g, s)
				} else if exact[c.Name] && !jsonEqual(g, s) {
					t.Errorf("line %d differs as JSON\nGo:         %s\nTypeScript: %s", i, g, s)
				}
			}
		})
	}
}

func jsonEqual(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runGo runs a case through acprouter with the stub agents.
func runGo(t *testing.T, c routerCase) []string {
	t.Helper()
	var routes []acprouter.Route
	for _, v := range c.Versions {
		r := acprouter.Route{Version: 1, Initialize: convert.InitializeForV1}
		if v == "v2" {
			r = acprouter.Route{Version: 2, Initialize: convert.InitializeForV2}
		}
		version := r.Version
		r.Connect = func(w io.Writer, r io.Reader) acprouter.Conn { return startStub(version, w, r) }
		routes = append(routes, r)
	}
	router, err := acprouter.New(routes...)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	conn, err := router.Serve(&out, strings.NewReader(strings.Join(c.Lines, "\n")+"\n"))
	switch {
	case errors.Is(err, acprouter.ErrNoInitialize):
	case err != nil:
		t.Fatal(err)
	default:
		<-conn.Done()
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

// stub is an agent-side connection that echoes each message it reads.
type stub struct{ done chan struct{} }

func (s *stub) Done() <-chan struct{} { return s.done }

func startStub(route int, w io.Writer, r io.Reader) *stub {
	s := &stub{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			msg := `{"jsonrpc":"2.0","method":"_routed","params":{"route":` + string(rune('0'+route)) + `,"got":` + string(line) + "}}\n"
			if _, err := io.WriteString(w, msg); err != nil {
				return
			}
		}
	}()
	return s
}

// comparable reads an output line for comparison: an initialize handed to
// a stub has its params as the stub's version reads them, and the reason
// initialize params did not parse is cut to its prefix.
func comparable(t *testing.T, line string) any {
	t.Helper()
	if line == "" {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	if e, ok := m["error"].(map[string]any); ok {
		if d, ok := e["data"].(string); ok && strings.HasPrefix(d, "invalid initialize params: ") {
			e["data"] = "invalid initialize params: …"
		}
	}
	p, ok := m["params"].(map[string]any)
	if !ok || m["method"] != "_routed" {
		return m
	}
	got, _ := p["got"].(map[string]any)
	if got["method"] != "initialize" || got["params"] == nil {
		return m
	}
	raw, _ := json.Marshal(got["params"])
	var canonical []byte
	var err error
	var named map[string]bool
	if p["route"] == float64(1) {
		var r acpv1.InitializeRequest
		if err = r.UnmarshalJSON(raw); err == nil {
			canonical, err = r.MarshalJSON()
		}
		named = jsonNames(reflect.TypeOf(r))
	} else {
		var r acpv2.InitializeRequest
		if err = r.UnmarshalJSON(raw); err == nil {
			canonical, err = r.MarshalJSON()
		}
		named = jsonNames(reflect.TypeOf(r))
	}
	if err != nil {
		got["params"] = "does not parse: " + err.Error()
		return m
	}
	var v map[string]any
	json.Unmarshal(canonical, &v)
	// The generated packages keep the members the schema allows without
	// naming them, and pass them on; zod drops them. Only the named members
	// are compared.
	for k := range v {
		if !named[k] {
			delete(v, k)
		}
	}
	got["params"] = withoutDefaults(v)
	return m
}

// jsonNames returns the JSON member names of struct type t's exported
// fields, those of its embedded structs included.
func jsonNames(t reflect.Type) map[string]bool {
	names := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		switch {
		case f.Anonymous && f.Type.Kind() == reflect.Struct:
			for k := range jsonNames(f.Type) {
				names[k] = true
			}
		case f.IsExported():
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			names[name] = true
		}
	}
	return names
}

// withoutDefaults drops the members of v that are false, and then those that
// are empty objects: the defaults zod fills in, which a Go decoder reads as
// they were absent.
func withoutDefaults(v any) any {
	o, ok := v.(map[string]any)
	if !ok {
		return v
	}
	for k, m := range o {
		m = withoutDefaults(m)
		if e, ok := m.(map[string]any); m == false || ok && len(e) == 0 {
			delete(o, k)
			continue
		}
		o[k] = m
	}
	return o
}
