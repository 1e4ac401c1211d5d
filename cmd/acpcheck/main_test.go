package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/acpcheck"
)

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"nonsense"}, {"agent"}, {"agent", "-versions", "x", "--", "true"}, {"remote"}} {
		var out, errOut bytes.Buffer
		code, _ := run(args, strings.NewReader(""), &out, &errOut)
		if code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

// TestHelp: -h, and -h after a mode, list the flags and a line per mode,
// and exit 0.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"agent", "-h"}} {
		var out, errOut bytes.Buffer
		code, err := run(args, strings.NewReader(""), &out, &errOut)
		text := out.String() + errOut.String()
		if code != 0 || err != nil {
			t.Errorf("%q: exit %d, %v", args, code, err)
		}
		for _, want := range []string{"-versions", "-timeout", "-listen", "check the transport of a remote endpoint", "be the agent a client under test launches"} {
			if !strings.Contains(text, want) {
				t.Errorf("%q: the usage lacks %q:\n%s", args, want, text)
			}
		}
	}
}

// TestAgentReports: a run over acpgen's example agent exits 0 and writes
// the JSON and JUnit reports; a command that cannot start exits 1.
func TestAgentReports(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example agent")
	}
	dir := t.TempDir()
	agent := filepath.Join(dir, "agent")
	if b, err := exec.Command("go", "build", "-o", agent, "../../examples/agent").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	jsonFile, junitFile := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml")
	var out, errOut bytes.Buffer
	code, err := run([]string{"agent", "-versions", "1", "-json", jsonFile, "-junit", junitFile, "--", agent}, strings.NewReader(""), &out, &errOut)
	if err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s%s", code, err, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "PASS: every MUST holds") {
		t.Errorf("summary:\n%s", out.String())
	}
	data, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		OK       bool
		Seconds  float64
		Verdicts []json.RawMessage
	}
	if err := json.Unmarshal(data, &r); err != nil || !r.OK || r.Seconds <= 0 || len(r.Verdicts) < 20 {
		t.Errorf("JSON report: ok %v, %v s, %d verdicts, %v", r.OK, r.Seconds, len(r.Verdicts), err)
	}
	data, err = os.ReadFile(junitFile)
	if err != nil {
		t.Fatal(err)
	}
	var x struct {
		Suites []struct {
			Name  string `xml:"name,attr"`
			Tests int    `xml:"tests,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &x); err != nil || len(x.Suites) != 4 || x.Suites[0].Tests == 0 {
		t.Errorf("JUnit report: %+v, %v", x, err)
	}
	// The same agent in the sandbox, where there is one.
	if root, err := sandboxed(&acpcheck.CommandTarget{}); err == nil {
		os.RemoveAll(root)
		out.Reset()
		code, err = run([]string{"agent", "-sandbox", "-versions", "1", "--", agent}, strings.NewReader(""), &out, &errOut)
		if err != nil || code != 0 {
			t.Errorf("-sandbox: exit %d, %v\n%s", code, err, out.String())
		}
	} else {
		t.Logf("no sandbox here: %v", err)
	}
	out.Reset()
	code, _ = run([]string{"agent", "-timeout", "200ms", "--", filepath.Join(dir, "no-such-agent")}, strings.NewReader(""), &out, &errOut)
	if code != 1 {
		t.Errorf("a command that does not start: exit %d, want 1\n%s", code, out.String())
	}
}
