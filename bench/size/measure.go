package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// runner runs the go command to measure packages, with this program as
// its -toolexec wrapper, keeping its files in dir.
type runner struct {
	self     string // this program's executable
	dir      string // a scratch directory for the timings and the executables
	gcflags  string // flags for the compiler, on the measured package only
	measured string // the import path of the package measured last
	pkgs     map[string]pkgInfo
}

// pkgInfo is what the runner needs to know of a package under a set of tags.
type pkgInfo struct {
	dir   string
	files []string // the non-test Go files that the tags select
}

// info returns what go list says of the package pkg under tags.
func (r *runner) info(pkg, tags string) (pkgInfo, error) {
	key := pkg + " " + tags
	if p, ok := r.pkgs[key]; ok {
		return p, nil
	}
	out, err := goCmd(nil, "list", "-tags", tags, "-f", `{{.Dir}}{{range .GoFiles}}{{"\n"}}{{.}}{{end}}`, pkg)
	if err != nil {
		return pkgInfo{}, err
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 2 {
		return pkgInfo{}, fmt.Errorf("go list %s: no Go files", pkg)
	}
	p := pkgInfo{dir: lines[0], files: lines[1:]}
	if r.pkgs == nil {
		r.pkgs = map[string]pkgInfo{}
	}
	r.pkgs[key] = p
	return p, nil
}

// lines returns the number of lines of the package's Go files under tags.
func (r *runner) lines(pkg, tags string) (int, error) {
	p, err := r.info(pkg, tags)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, f := range p.files {
		b, err := os.ReadFile(filepath.Join(p.dir, f))
		if err != nil {
			return 0, err
		}
		n += bytes.Count(b, []byte("\n"))
	}
	return n, nil
}

// compile builds the package pkg under tags and returns the timing of its
// compile action. The compiler is given, on pkg only, a flag without
// effect that holds nonce (-D, the directory of local imports, which the
// go command turns off), so that the build cache has no result for it: a
// distinct nonce for each call makes each a first build of the package,
// and its dependencies come from the cache.
func (r *runner) compile(pkg, tags string, nonce int64) (timing, error) {
	ts, err := r.timed(pkg, nonce, "build", "-tags", tags, pkg)
	if err != nil {
		return timing{}, err
	}
	for _, t := range ts {
		if t.Tool == "compile" && t.ImportPath == pkg {
			return t, nil
		}
	}
	return timing{}, fmt.Errorf("go build %s: the package was not compiled", pkg)
}

// vet runs go vet on the command agent, which imports pkg, as a user's
// first go vet after adding pkg to their module: with nonce, pkg is new to
// the cache, as in compile. It returns the CPU time of every tool that ran
// (pkg's compile included: vet needs its export data) and that of vet on
// pkg alone, which computes the facts that vetting its importers needs.
func (r *runner) vet(pkg, agent, tags string, nonce int64) (all, pkgVet time.Duration, err error) {
	ts, err := r.timed(pkg, nonce, "vet", "-tags", tags, agent)
	if err != nil {
		return 0, 0, err
	}
	for _, t := range ts {
		all += t.CPU()
		if t.Tool == "vet" && t.ImportPath == pkg {
			pkgVet = t.CPU()
		}
	}
	if pkgVet == 0 {
		return 0, 0, fmt.Errorf("go vet %s: vet did not run on %s", agent, pkg)
	}
	return all, pkgVet, nil
}

// timed runs the go command with args, with this program as its -toolexec
// wrapper and pkg compiled with the runner's flags and nonce, and returns
// the timings that the wrapper logged.
func (r *runner) timed(pkg string, nonce int64, args ...string) ([]timing, error) {
	log := filepath.Join(r.dir, "timings.log")
	if err := os.WriteFile(log, nil, 0o644); err != nil {
		return nil, err
	}
	r.measured = pkg
	gcflags := fmt.Sprintf("%s=-D=_bench_size_%d %s", pkg, nonce, r.gcflags)
	args = append([]string{args[0], "-toolexec", r.self, "-gcflags", gcflags}, args[1:]...)
	if _, err := goCmd([]string{logEnv + "=" + log}, args...); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(log)
	if err != nil {
		return nil, err
	}
	return parseTimings(bytes.NewReader(b))
}

// binarySize builds the command pkg with the extra go build flags, and
// the package measured last with the runner's compiler flags, and returns
// the size of its executable in bytes.
func (r *runner) binarySize(pkg, tags string, flags ...string) (int64, error) {
	exe := filepath.Join(r.dir, "agent.exe")
	args := append([]string{"build", "-o", exe, "-tags", tags}, flags...)
	if r.gcflags != "" {
		args = append(args, "-gcflags", r.measured+"="+r.gcflags)
	}
	args = append(args, pkg)
	if _, err := goCmd(nil, args...); err != nil {
		return 0, err
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return 0, err
	}
	return fi.Size(), os.Remove(exe)
}

// goTool is the go command that goCmd runs.
var goTool = "go"

// goTimeout bounds each run of the go command.
const goTimeout = 10 * time.Minute

// goCmd runs the go command with args and the extra environment env, and
// returns its standard output; its error says what it wrote on stderr.
func goCmd(env []string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), goTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return stdout.String(), nil
}
