// Command size measures what a user of acpv1 compiles, side by side with
// github.com/coder/acp-go-sdk in one run (`make bench-size` from the
// repository root, which runs it in bench/): the package's own compile CPU
// time (the compile action's user and system time, the median of -count
// counts, acpv1 in its default build and with -tags unstable), the CPU
// time of the first go vet of a minimal v1 agent built on each (commands
// acpgenagent and coderagent), and the size of that agent's executable.
// It prints Markdown tables and the ratios against coder's, with the one
// guard in force: the minimal agent's binary, in the default build, at most
// 1.5 times coder's. (The former targets, a compile CPU time at most twice
// coder's and a binary at most 1.25 times, were retired: the per-type codec
// methods cost more than that even with empty bodies.)
//
// Each count builds and vets each package once, the contenders taking
// turns, with a compiler flag without effect whose value is new each time,
// so that the build cache has no result for the package (its dependencies
// come from the cache). The program is its own -toolexec wrapper, which
// times the compiler and vet on each package.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

// contender is a package to measure and the command of its minimal agent.
type contender struct {
	name, pkg, tags string
	agent           string // the import path of its minimal agent
}

const acpv1 = "github.com/acpgen/acpgen/generated/acpv1"

const coder = "github.com/coder/acp-go-sdk"

var contenders = []contender{
	{"acpv1", acpv1, "", "github.com/acpgen/acpgen/bench/size/acpgenagent"},
	{"acpv1 -tags unstable", acpv1, "unstable", "github.com/acpgen/acpgen/bench/size/acpgenagent"},
	{"coder", coder, "", "github.com/acpgen/acpgen/bench/size/coderagent"},
}

// binaryGuard is the largest ratio of the default build's minimal agent
// binary to coder's.
const binaryGuard = 1.5

func main() {
	if os.Getenv(logEnv) != "" {
		os.Exit(toolexec(os.Args[1:]))
	}
	count := flag.Int("count", 3, "measure each package's compile and vet `n` times (at most 20)")
	vet := flag.Bool("vet", true, "measure the first go vet of each package")
	flag.StringVar(&goTool, "go", goTool, "the go `command` to build and vet with")
	gcflags := flag.String("gcflags", "", "compile the measured packages with these compiler `flags` (-l: no inlining)")
	flag.Parse()
	if *count < 1 || *count > 20 {
		fmt.Fprintln(os.Stderr, "size: -count must be between 1 and 20")
		os.Exit(2)
	}
	if err := run(*count, *vet, *gcflags); err != nil {
		fmt.Fprintln(os.Stderr, "size:", err)
		os.Exit(1)
	}
}

// run measures every contender and prints the tables and the ratios.
func run(count int, vet bool, gcflags string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "acpgen-bench-size-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	r := &runner{self: self, dir: dir, gcflags: gcflags}
	res := make([]result, len(contenders))
	nonce := time.Now().UnixNano()
	for i := range count {
		for j, c := range contenders {
			if err := res[j].measure(r, c, vet, nonce+int64(i)); err != nil {
				return err
			}
		}
	}
	for j, c := range contenders {
		if err := res[j].sizes(r, c); err != nil {
			return err
		}
	}
	report(os.Stdout, res, count, gcflags)
	return nil
}
