package acpinspect

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMaskSecrets: the values of the MCP servers' environment variables and
// headers are masked, everything else kept, members in their order.
func TestMaskSecrets(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[` +
		`{"name":"fs","command":"mcp-fs","args":["--value"],"env":[{"name":"API_KEY","value":"sk-123"},{"value":"tok","name":"B"}]},` +
		`{"type":"http","name":"web","url":"https://x","headers":[{"name":"Authorization","value":"Bearer abc"}]}]}}`
	got, ok := maskSecrets([]byte(in))
	if !ok {
		t.Fatal("nothing masked")
	}
	for _, secret := range []string{"sk-123", "tok", "Bearer abc"} {
		if strings.Contains(string(got), secret) {
			t.Errorf("%q left in %s", secret, got)
		}
	}
	want := strings.NewReplacer(`"sk-123"`, `"`+masked+`"`, `"tok"`, `"`+masked+`"`, `"Bearer abc"`, `"`+masked+`"`).Replace(in)
	if string(got) != want {
		t.Errorf("masked:\n%s\nwant\n%s", got, want)
	}
	for _, keep := range []string{
		`{"jsonrpc":"2.0","method":"x","params":{"value":"v","env":"not a list"}}`,
		`{"env":[{"name":"a"}],"other":[{"value":"v"}]}`,
		`not json "env"`,
		`{"env":[{"value":"cut`,
	} {
		if got, ok := maskSecrets([]byte(keep)); ok || string(got) != keep {
			t.Errorf("maskSecrets(%s) = %s, %v; want it unchanged", keep, got, ok)
		}
	}
}

// TestMessageMasked: the page's detail of a message masks its secrets
// unless ShowSecrets is set.
func TestMessageMasked(t *testing.T) {
	in := NewInspector()
	in.Record(Frame{Conn: 1, From: FromClient, Data: []byte(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[{"name":"fs","command":"c","args":[],"env":[{"name":"K","value":"sk-123"}]}]}}`)})
	for _, show := range []bool{false, true} {
		ui := NewUI(in, UIOptions{Token: "t", ShowSecrets: show})
		w := get(t, ui, "/api/message?seq=1")
		var d Detail
		if err := json.Unmarshal(w.Body.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(d.Text, "sk-123") == !show || d.Masked == show {
			t.Errorf("ShowSecrets %v: masked %v, text %s", show, d.Masked, d.Text)
		}
	}
}

// get serves the page's GET of path to the holder of the token "t".
func get(t *testing.T, ui *UI, path string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("GET", "http://127.0.0.1"+path, nil)
	req.AddCookie(&http.Cookie{Name: cookieName, Value: "t"})
	w := httptest.NewRecorder()
	ui.ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, w.Code, w.Body)
	}
	return w
}
