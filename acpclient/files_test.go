package acpclient

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newHost returns a Host serving everything with session "s" opened on a
// fresh directory, and the directory.
func newHost(t *testing.T, opts Options) (*Host, string) {
	t.Helper()
	opts.Read, opts.Write, opts.Terminals = true, true, true
	h := New(opts)
	dir := t.TempDir()
	if err := h.Open("s", dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h, dir
}

func wantRefusal(t *testing.T, err error, path, reason string) {
	t.Helper()
	var r *refusal
	if !errors.As(err, &r) {
		t.Fatalf("got %v, want a refusal of %s", err, path)
	}
	if r.value != path || !strings.Contains(r.reason, reason) {
		t.Errorf("refused %s for %q, want %s for a reason containing %q", r.value, r.reason, path, reason)
	}
}

func TestReadConfined(t *testing.T) {
	h, dir := newHost(t, Options{})
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret")
	if err := os.WriteFile(secret, []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, reason string }{
		{secret, "outside the session's directory"},
		{"/etc/passwd", "outside the session's directory"},
		{"relative.txt", "not an absolute path"},
		{dir + "/../" + filepath.Base(outside) + "/secret", `".."`},
		{dir + "/sub/../x", `".."`},
		{filepath.Join(dir, "link"), "symbolic link"},
		{filepath.Join(dir, "out", "secret"), "symbolic link"},
	} {
		_, err := h.ReadFile("s", c.path, 0, 0)
		wantRefusal(t, err, c.path, c.reason)
		err = h.WriteFile("s", c.path, "x")
		wantRefusal(t, err, c.path, c.reason)
	}
	if b, _ := os.ReadFile(secret); string(b) != "s3cret" {
		t.Errorf("the file outside was changed to %q", b)
	}
}

func TestReadWrite(t *testing.T) {
	h, dir := newHost(t, Options{MaxFileBytes: 100})
	p := filepath.Join(dir, "a", "b", "notes.txt")
	if err := h.WriteFile("s", p, "one\ntwo\nthree\nfour"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		line, limit int
		want        string
	}{
		{0, 0, "one\ntwo\nthree\nfour"},
		{2, 0, "two\nthree\nfour"},
		{2, 2, "two\nthree\n"},
		{4, 5, "four"},
		{9, 0, ""},
		{1, 1, "one\n"},
	} {
		got, err := h.ReadFile("s", p, c.line, c.limit)
		if err != nil || got != c.want {
			t.Errorf("line %d limit %d: got %q, %v; want %q", c.line, c.limit, got, err, c.want)
		}
	}
	// A link that stays inside is followed.
	if err := os.Symlink(filepath.Join("a", "b", "notes.txt"), filepath.Join(dir, "inside")); err != nil {
		t.Fatal(err)
	}
	if got, err := h.ReadFile("s", filepath.Join(dir, "inside"), 4, 0); err != nil || got != "four" {
		t.Errorf("through a link inside: %q, %v", got, err)
	}
	_, err := h.ReadFile("s", filepath.Join(dir, "missing.txt"), 0, 0)
	var nf *notFound
	if !errors.As(err, &nf) || nf.uri() != "file://"+filepath.Join(dir, "missing.txt") {
		t.Errorf("a missing file: %v", err)
	}
	_, err = h.ReadFile("s", filepath.Join(dir, "a"), 0, 0)
	wantRefusal(t, err, filepath.Join(dir, "a"), "a directory")
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, 101), 0o600)
	_, err = h.ReadFile("s", big, 0, 0)
	wantRefusal(t, err, big, "larger than 100 bytes")
	bin := filepath.Join(dir, "bin")
	os.WriteFile(bin, []byte{0xff, 0xfe}, 0o600)
	_, err = h.ReadFile("s", bin, 0, 0)
	wantRefusal(t, err, bin, "not UTF-8")
	_, err = h.ReadFile("other", p, 0, 0)
	var r *refusal
	if !errors.As(err, &r) || r.field != "sessionId" {
		t.Errorf("an unknown session: %v", err)
	}
}

func TestOutputCutAtCharacter(t *testing.T) {
	o := &output{limit: 4}
	o.Write([]byte("abcé€")) // 3 + 2 + 3 bytes
	got, truncated := o.text(false)
	if got != "€" || !truncated {
		t.Errorf("got %q, %v; want the last whole characters within 4 bytes, truncated", got, truncated)
	}
	o = &output{limit: 64}
	o.Write([]byte("ok é"[:4])) // é's first byte alone
	if got, _ := o.text(true); got != "ok " {
		t.Errorf("while running: %q, want the incomplete character held back", got)
	}
	o.Write([]byte("é"[1:]))
	if got, truncated := o.text(true); got != "ok é" || truncated {
		t.Errorf("completed: %q, %v", got, truncated)
	}
	o = &output{limit: 10}
	for range 1000 {
		o.Write([]byte("ü"))
	}
	if got, _ := o.text(false); got != strings.Repeat("ü", 5) || len(o.buf) > 2*10+4 {
		t.Errorf("after many writes: %q (%d bytes kept)", got, len(o.buf))
	}
}
