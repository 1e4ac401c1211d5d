// Package reexec lets a test binary play the child processes its tests
// start: TestMain hands over to [Main], which plays the mode an environment
// variable names when the binary runs as a child, and [Command] runs the
// test binary as a child of a mode.
package reexec

import (
	"os"
	"os/exec"
	"testing"
)

// Main runs the tests of m, or, when the environment variable env names a
// mode, plays that mode and exits 0 when play returns.
func Main(m *testing.M, env string, play func(mode string)) {
	if mode := os.Getenv(env); mode != "" {
		play(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Cmd returns the command that runs the test binary as the child of mode,
// running no test: env names the mode, as it does for [Main].
func Cmd(env, mode string) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "-test.run=^$")
	// A binary built with -race sleeps a second at exit unless told not to.
	cmd.Env = append(os.Environ(), env+"="+mode, "GORACE=atexit_sleep_ms=0")
	return cmd, nil
}

// Command is [Cmd] for a test, which it fails when the test binary cannot
// be found.
func Command(t *testing.T, env, mode string) *exec.Cmd {
	t.Helper()
	cmd, err := Cmd(env, mode)
	if err != nil {
		t.Fatal(err)
	}
	return cmd
}
