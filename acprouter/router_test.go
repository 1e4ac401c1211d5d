package acprouter_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/acprouter"
	"github.com/acpgen/acpgen/generated/convert"
)

// TestAnswersBeforeInitialize checks the answers to what comes before
// initialize without node: the lines TestMatchesTypeScriptRouter compares
// with the TypeScript SDK, written down.
func TestAnswersBeforeInitialize(t *testing.T) {
	got := runGo(t, routerCase{Name: "go", Versions: []string{"v1", "v2"}, Lines: []string{
		`{`, `[{}]`, `7`,
		`{"jsonrpc":"2.0","method":"session/cancel","params":{}}`,
		`{"jsonrpc":"2.0","id":3,"result":{}}`,
		`{"jsonrpc":"2.0","id":"n","method":"session/new","params":{}}`,
		`{"method":"initialize"}`,
		init1("4", `{"protocolVersion":"2"}`),
		init1("5", `{"protocolVersion":0}`),
		init1("6.5", `{"protocolVersion":2,"info":{"name":"c","version":"1"}}`),
		init1("7", `{"protocolVersion":2}`),
		init1("8", `{"protocolVersion":3,"info":{}}`),
		`{"jsonrpc":"2.0","id":9,"method":"session/new","params":{}}`,
	}})
	want := []string{
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: JSON-RPC batches are not supported"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request","data":7}}`,
		`{"jsonrpc":"2.0","id":"n","error":{"code":-32600,"message":"Invalid request","data":"first ACP request must be initialize"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request","data":"first ACP message must be an initialize request"}}`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params","data":"initialize.protocolVersion must be a valid ACP protocol version"}}`,
		`{"jsonrpc":"2.0","id":5,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":0,"supported":[1,2]}}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: ACP v2 request IDs must be strings or integers"}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params","data":"invalid initialize params: …"}}`,
		`{"jsonrpc":"2.0","method":"_routed","params":{"route":2,"got":{"jsonrpc":"2.0","id":8,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"unknown","version":"unknown"}}}}}`,
		`{"jsonrpc":"2.0","method":"_routed","params":{"route":2,"got":{"jsonrpc":"2.0","id":9,"method":"session/new","params":{}}}}`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if g := comparable(t, got[i]); !jsonEqual(mustJSON(t, g), mustJSON(t, comparable(t, want[i]))) {
			t.Errorf("line %d:\ngot  %s\nwant %s", i, got[i], want[i])
		}
	}
}

// TestServeEndsBeforeInitialize checks that Serve returns ErrNoInitialize
// when the input ends first, and the reading error when reading fails.
func TestServeEndsBeforeInitialize(t *testing.T) {
	router, err := acprouter.New(acprouter.NewRoute(1, func(w io.Writer, r io.Reader) *stub {
		return startStub(1, w, r)
	}, convert.InitializeForV1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := router.Serve(io.Discard, strings.NewReader(`{"jsonrpc":"2.0","method":"x"}`)); !errors.Is(err, acprouter.ErrNoInitialize) {
		t.Errorf("input ended: %v", err)
	}
	failing := errors.New("broken pipe")
	if _, err := router.Serve(io.Discard, io.MultiReader(strings.NewReader("\n"), &errorReader{failing})); !errors.Is(err, failing) {
		t.Errorf("reading failed: %v", err)
	}
	// An initialize on the last line, without a newline, is routed.
	conn, err := router.Serve(io.Discard, strings.NewReader(init1("1", `{"protocolVersion":1}`)))
	if err != nil {
		t.Fatal(err)
	}
	<-conn.Done()
}

// TestNewChecksRoutes checks the routes New refuses.
func TestNewChecksRoutes(t *testing.T) {
	ok := acprouter.NewRoute(1, func(w io.Writer, r io.Reader) acprouter.Conn { return startStub(1, w, r) }, convert.InitializeForV1)
	for name, routes := range map[string][]acprouter.Route{
		"none":            nil,
		"no initialize":   {acprouter.NewRoute(2, ok.Connect, nil)},
		"no connect func": {acprouter.NewRoute[acprouter.Conn](2, nil, convert.InitializeForV2)},
		"version 0":       {{Version: 0, Connect: ok.Connect, Initialize: ok.Initialize}},
		"twice":           {ok, ok},
		"no connect":      {{Version: 2, Initialize: ok.Initialize}},
	} {
		if _, err := acprouter.New(routes...); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

type errorReader struct{ err error }

func (e *errorReader) Read([]byte) (int, error) { return 0, e.err }
