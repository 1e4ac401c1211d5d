package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The go command runs this program as its -toolexec wrapper when logEnv
// names a file: the wrapper runs the tool and, when the tool is the
// compiler or vet working on a package, appends the tool's CPU time to
// that file, one timing a line.
const logEnv = "ACPGEN_BENCH_SIZE_LOG"

// timing is the time one run of a tool took on one package.
type timing struct {
	Tool       string        // "compile" or "vet"
	ImportPath string        // as the go command's TOOLEXEC_IMPORTPATH says it
	User, Sys  time.Duration // CPU time, in user mode and in the kernel
	Wall       time.Duration
}

// CPU returns the tool's CPU time, user and system.
func (t timing) CPU() time.Duration { return t.User + t.Sys }

// String returns the timing as a line of the log, without its newline.
func (t timing) String() string {
	return fmt.Sprintf("%s\t%s\t%d\t%d\t%d", t.Tool, t.ImportPath, t.User, t.Sys, t.Wall)
}

// parseTimings reads the timings that the wrapper logged, one a line.
func parseTimings(r io.Reader) ([]timing, error) {
	var ts []timing
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("timing log line %d: %d fields, want 5", n, len(f))
		}
		t := timing{Tool: f[0], ImportPath: f[1]}
		for i, d := range []*time.Duration{&t.User, &t.Sys, &t.Wall} {
			ns, err := strconv.ParseInt(f[2+i], 10, 64)
			if err != nil || ns < 0 {
				return nil, fmt.Errorf("timing log line %d: field %d: not a duration in nanoseconds: %q", n, 3+i, f[2+i])
			}
			*d = time.Duration(ns)
		}
		ts = append(ts, t)
	}
	return ts, sc.Err()
}

// toolexec runs the tool that args name, as the go command's -toolexec
// wrapper, logs its timing when it is one to measure, and returns the exit
// code that the wrapper should exit with.
func toolexec(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "size: toolexec: no tool to run")
		return 2
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "size: toolexec:", err)
		return 1
	}
	tool := strings.TrimSuffix(filepath.Base(args[0]), ".exe")
	if (tool == "compile" || tool == "vet") && !slices.Contains(args[1:], "-V=full") {
		t := timing{Tool: tool, ImportPath: os.Getenv("TOOLEXEC_IMPORTPATH"),
			User: cmd.ProcessState.UserTime(), Sys: cmd.ProcessState.SystemTime(), Wall: wall}
		if err := appendLine(os.Getenv(logEnv), t.String()); err != nil {
			fmt.Fprintln(os.Stderr, "size: toolexec:", err)
			return 1
		}
	}
	if code := cmd.ProcessState.ExitCode(); code >= 0 {
		return code
	}
	return 1
}

// appendLine appends line and a newline to the file name.
func appendLine(name, line string) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f, line+"\n")
	return errors.Join(err, f.Close())
}
