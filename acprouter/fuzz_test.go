package acprouter_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/acprouter"
	"github.com/acpgen/acpgen/generated/convert"
)

// FuzzServe sends arbitrary input to a router of both versions: it never
// panics, every line it writes before routing is a JSON-RPC error
// response, and what it routes starts with an initialize request.
func FuzzServe(f *testing.F) {
	for _, c := range routerCases {
		f.Add(strings.Join(c.Lines, "\n"))
	}
	f.Add("{\"jsonrpc\":\"2.0\",\"id\":1e400,\"method\":\"initialize\",\"params\":{\"protocolVersion\":2}}")
	f.Add("\xff\n{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":1}}")
	f.Fuzz(func(t *testing.T, input string) {
		var routes []acprouter.Route
		var handed bytes.Buffer
		for _, r := range []acprouter.Route{acprouter.Route{Version: 1, Initialize: convert.InitializeForV1}, acprouter.Route{Version: 2, Initialize: convert.InitializeForV2}} {
			r.Connect = func(w io.Writer, r io.Reader) acprouter.Conn {
				done := make(chan struct{})
				close(done)
				line, _ := bufio.NewReader(r).ReadBytes('\n')
				handed.Write(line)
				return doneConn(done)
			}
			routes = append(routes, r)
		}
		router, err := acprouter.New(routes...)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		_, err = router.Serve(&out, strings.NewReader(input))
		if err != nil && !errors.Is(err, acprouter.ErrNoInitialize) {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if line == "" {
				continue
			}
			var m struct {
				ID    json.RawMessage `json:"id"`
				Error *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(line), &m); err != nil || m.Error == nil || m.Error.Message == "" {
				t.Fatalf("wrote %q for %q", line, input)
			}
		}
		if handed.Len() > 0 {
			var m struct{ Method string }
			if err := json.Unmarshal(handed.Bytes(), &m); err != nil || m.Method != "initialize" {
				t.Fatalf("handed %q for %q", handed.Bytes(), input)
			}
		}
	})
}

type doneConn <-chan struct{}

func (d doneConn) Done() <-chan struct{} { return d }
