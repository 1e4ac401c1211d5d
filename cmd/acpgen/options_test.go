package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageErrors: options that cannot work are usage errors (exit status
// 2) and write nothing.
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	for _, args := range [][]string{
		{"-package", "acp"},
		{"-version", "v3"},
		{"-version", "v1", "-package", "no-go"},
		{"-features", "unstable_nope"},
		{"-features", ""},
		{"-config", filepath.Join(dir, "missing.json")},
		{"extra"},
	} {
		err := generate(append(args, "-out", out), io.Discard)
		if _, ok := err.(usageError); !ok {
			t.Errorf("%q: err %v, want a usage error", args, err)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%q: %s exists (%v); want nothing written", args, out, err)
		}
	}
}

// TestConfig generates from a config file; its relative paths are relative
// to the file, and a flag on the command line wins over it.
func TestConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "acpgen.json")
	conf := `{"version": "v2", "package": "acp", "out": "acp", "features": "none"}`
	if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := generate([]string{"-config", cfg, "-version", "v1"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "acp", "types.go"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	for _, want := range []string{"\npackage acp\n", "v1/schema.json", "\n// Command: acpgen -config "} {
		if !strings.Contains(src, want) {
			t.Errorf("types.go lacks %q", want)
		}
	}
	if strings.Contains(src, "-config "+dir) {
		t.Errorf("the header has the absolute path %s", dir)
	}
	if err := os.WriteFile(cfg, []byte(`{"outdir": "x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := generate([]string{"-config", cfg}, io.Discard); err == nil || !strings.Contains(err.Error(), "outdir") {
		t.Errorf("unknown member: err %v, want it named", err)
	}
}

func TestCommandLine(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	fl := flag.NewFlagSet("acpgen", flag.ContinueOnError)
	fl.String("out", "", "")
	fl.String("features", "", "")
	fl.String("package", "", "")
	fl.Bool("check", false, "")
	fl.Bool("bake", false, "")
	args := []string{"-package", "acp", "-check", "-out", filepath.Join(wd, "sub", "acp"), "-features", "a b", "-bake"}
	if err := fl.Parse(args); err != nil {
		t.Fatal(err)
	}
	want := `acpgen -bake -features "a b" -out sub/acp -package acp`
	if got := commandLine(fl); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
