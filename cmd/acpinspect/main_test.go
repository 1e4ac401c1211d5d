package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsage: a command line that names no mode is refused with the usage.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"-target", "http://x"}, {"open"}, {"agent"}} {
		var out bytes.Buffer
		if code := run(args, &out); code != 2 || !strings.Contains(out.String(), "usage: acpinspect") {
			t.Errorf("run(%q) = %d, %q", args, code, out.String())
		}
	}
}

// TestOpen reads a wire log and says what it found; a file that is not
// one is an error naming its line.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "wire.jsonl")
	os.WriteFile(log, []byte(`{"time":"2026-01-02T15:04:05Z","conn":1,"dir":"in","bytes":10,"msg":{"jsonrpc":"2.0","id":5,"result":{}}}`+"\n"), 0o600)
	var out bytes.Buffer
	if code := run([]string{"-ui", "", "open", log}, &out); code != 0 || !strings.Contains(out.String(), "1 messages, 2 findings") {
		t.Errorf("open: %d %q", code, out.String())
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("hello\n"), 0o600)
	out.Reset()
	if code := run([]string{"-ui", "", "open", bad}, &out); code != 1 || !strings.Contains(out.String(), "line 1") {
		t.Errorf("open of a bad file: %d %q", code, out.String())
	}
}
