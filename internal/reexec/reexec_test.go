package reexec

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

const env = "REEXEC_TEST_MODE"

func TestMain(m *testing.M) {
	Main(m, env, func(mode string) {
		fmt.Print("played " + mode + " " + os.Getenv("GORACE"))
	})
}

// TestCommand: the child plays the mode it is given, with the race
// detector's exit sleep turned off, and runs no test.
func TestCommand(t *testing.T) {
	out, err := Command(t, env, "echo").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out); got != "played echo atexit_sleep_ms=0" {
		t.Errorf("the child wrote %q", got)
	}
	if strings.Contains(string(out), "PASS") {
		t.Error("the child ran the tests")
	}
}
