package quickjson

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite valid.go from the template")

// template is the file valid.go is copied from.
const template = "../../templates/conn/proxy_valid.go"

// TestCopyIsCurrent: valid.go is the template with its build constraint
// and package clause replaced; -update writes it so.
func TestCopyIsCurrent(t *testing.T) {
	src, err := os.ReadFile(template)
	if err != nil {
		t.Fatal(err)
	}
	const clause = "//go:build ignore\n\npackage acp\n"
	if !bytes.HasPrefix(src, []byte(clause)) {
		t.Fatalf("%s does not start with %q", template, clause)
	}
	want := append([]byte("// Code generated from templates/conn/proxy_valid.go by TestCopyIsCurrent -update. DO NOT EDIT.\n\npackage quickjson\n"), src[len(clause):]...)
	if *update {
		if err := os.WriteFile("valid.go", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("valid.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("valid.go is not the copy of %s: run go test ./internal/quickjson -run TestCopyIsCurrent -update", template)
	}
}

// TestValid: the copy answers as the template's loop does on a few values.
func TestValid(t *testing.T) {
	for s, want := range map[string]bool{
		`{"a":[1,-0.5e+10,true,null,"\u00e9"]}`: true, ` "x" `: true,
		`{"a":1,}`: false, `[1.]`: false, `["\ud800"]`: false, ``: false,
	} {
		if got := Valid([]byte(s)); got != want {
			t.Errorf("Valid(%q) = %v, want %v", s, got, want)
		}
	}
}
