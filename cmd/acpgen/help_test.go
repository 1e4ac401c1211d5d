package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestHelp: acpgen help lists every command with its arguments, acpgen
// help <command> gives a command's arguments and flags, and -h of any
// command prints its usage and ends with status 0.
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	if err := help(nil, &out); err != nil {
		t.Fatal(err)
	}
	for _, c := range commands {
		if !strings.Contains(out.String(), c.args) || !strings.Contains(out.String(), "\n  "+c.name+" ") {
			t.Errorf("acpgen help lacks %s %q:\n%s", c.name, c.args, out.String())
		}
	}
	for cmd, want := range map[string]string{
		"diff":     "usage: acpgen diff [-json] [-exit-code] [-breaking] [-version v1|v2] [-features all|none|list] (pkgdir | old-schema-dir new-schema-dir)\n",
		"fetch":    "-npm string",
		"api":      "-readme string",
		"generate": "acpgen [generate] flags:",
		"version":  "usage: acpgen version",
	} {
		out.Reset()
		if err := help([]string{cmd}, &out); err != nil || !strings.Contains(out.String(), want) {
			t.Errorf("acpgen help %s: %v, lacks %q:\n%s", cmd, err, want, out.String())
		}
	}
	if err := help([]string{"nope"}, &out); err == nil || !strings.Contains(err.Error(), `no command "nope"; the commands are generate, diff, api, fetch, version, help`) {
		t.Errorf("help nope: %v", err)
	}
	var usageText bytes.Buffer
	flagOutput = &usageText
	defer func() { flagOutput = os.Stderr }()
	err := generate([]string{"-h"}, &out)
	if err != exitCode(0) || !strings.Contains(usageText.String(), "acpgen diff ") || !strings.Contains(usageText.String(), "-prune") {
		t.Errorf("acpgen -h: %v\n%s", err, usageText.String())
	}
}
