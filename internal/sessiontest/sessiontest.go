// Package sessiontest replays the session updates of the conformance
// corpus into the session state of a generated package and writes out what
// each one changed and where each session ends, for a golden file.
package sessiontest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/acpgen/acpgen/internal/conformance"
)

// Adapter is what the replay needs of a generated package.
type Adapter struct {
	Version string
	// Reset drops every session state: each page of the corpus starts anew.
	Reset func()
	// Apply decodes the params of a session/update notification and applies
	// the update to the state of its session; it returns the session's id
	// and what changed, written out.
	Apply func(params []byte) (session, change string, err error)
	// SetConfigOptions applies a session/set_config_option result to the
	// state of session and returns what changed, written out.
	SetConfigOptions func(session string, result []byte) (change string, err error)
	// Snapshot returns the snapshot of the state of session.
	Snapshot func(session string) any
}

// Replay replays the corpus pages of a.Version (the draft pages too when
// drafts is set) and returns the text of the golden file: per page, one
// line per session update or config option result, then the snapshot of
// each session the page touched, as indented JSON.
func Replay(t testing.TB, a Adapter, drafts bool) []byte {
	var out bytes.Buffer
	page, header := "", "" // header: the page's line, until written
	line := func(format string, args ...any) {
		out.WriteString(header)
		header = ""
		fmt.Fprintf(&out, format, args...)
	}
	var sessions []string
	seen := map[string]bool{}
	requests := map[string]string{} // id → session of a set_config_option request
	flush := func() {
		for _, s := range sessions {
			b, err := json.MarshalIndent(a.Snapshot(s), "  ", "  ")
			if err != nil {
				t.Fatalf("%s: snapshot of %s: %v", page, s, err)
			}
			fmt.Fprintf(&out, "  session %s:\n  %s\n", s, b)
		}
		sessions, seen = nil, map[string]bool{}
	}
	touch := func(s string) {
		if !seen[s] {
			seen[s] = true
			sessions = append(sessions, s)
		}
	}
	for _, m := range conformance.Messages(t, a.Version) {
		if m.Draft && !drafts {
			continue
		}
		if m.Page != page {
			flush()
			page = m.Page
			a.Reset()
			requests = map[string]string{}
			header = "page " + page + "\n"
		}
		switch {
		case m.Kind == "notification" && m.Method == "session/update":
			s, change, err := a.Apply(m.Params)
			if err != nil {
				line("  %s: not decoded: %v\n", m.Name, err)
				continue
			}
			touch(s)
			line("  %s: %s\n", m.Name, change)
		case m.Kind == "request" && m.Method == "session/set_config_option":
			var p struct {
				SessionID string `json:"sessionId"`
			}
			if json.Unmarshal(m.Params, &p) == nil {
				requests[string(m.ID)] = p.SessionID
			}
		case m.Kind == "result" && m.Method == "session/set_config_option":
			s, ok := requests[string(m.ID)]
			if !ok {
				continue
			}
			change, err := a.SetConfigOptions(s, m.Params)
			if err != nil {
				line("  %s: not decoded: %v\n", m.Name, err)
				continue
			}
			touch(s)
			line("  %s: %s\n", m.Name, change)
		}
	}
	flush()
	return out.Bytes()
}

// Golden compares got with the file path, or rewrites the file when update
// is set.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the replay (run with -update to rewrite it after checking the diff):\n%s", path, lineDiff(want, got))
	}
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got []byte) string {
	w, g := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b []byte
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if !bytes.Equal(a, b) {
			return fmt.Sprintf("line %d:\nwant %s\n got %s", i+1, a, b)
		}
	}
	return ""
}
