package main

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"
)

// result holds what was measured of one contender.
type result struct {
	c                contender
	lines            int
	compile          []time.Duration // CPU time of each count
	vet, pkgVet      []time.Duration // the whole first go vet of the agent, and vet on the package
	binary, stripped int64           // sizes of the agent's executable
}

// measure adds one count of the contender's compile and, when vet is set,
// its vet.
func (res *result) measure(r *runner, c contender, vet bool, nonce int64) error {
	res.c = c
	t, err := r.compile(c.pkg, c.tags, nonce)
	if err != nil {
		return err
	}
	res.compile = append(res.compile, t.CPU())
	if !vet {
		return nil
	}
	// A nonce of its own, so that the package's compile counts in the vet.
	all, pkgVet, err := r.vet(c.pkg, c.agent, c.tags, -nonce)
	res.vet = append(res.vet, all)
	res.pkgVet = append(res.pkgVet, pkgVet)
	return err
}

// sizes counts the package's lines and builds its agent with and without
// symbols and debug information.
func (res *result) sizes(r *runner, c contender) error {
	var err error
	if res.lines, err = r.lines(c.pkg, c.tags); err != nil {
		return err
	}
	r.measured = c.pkg
	if res.binary, err = r.binarySize(c.agent, c.tags); err != nil {
		return err
	}
	res.stripped, err = r.binarySize(c.agent, c.tags, "-ldflags=-s -w")
	return err
}

// median returns the median of ds, the lower one of an even count; 0 when
// ds is empty.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

// report prints the tables of the results and the ratios against coder's,
// with the binary guard of the default build; the last result is coder's.
func report(w io.Writer, res []result, count int, gcflags string) {
	fmt.Fprintf(w, "\nCompile and first go vet of each package, %s %s/%s: CPU time (user+sys), median of the counts (%d)",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, count)
	if gcflags != "" {
		fmt.Fprintf(w, ", compiled with -gcflags=%q", gcflags)
	}
	fmt.Fprint(w, "\n\n| package | lines | compile CPU | counts | first go vet of the agent | vet on the package |\n|---|---|---|---|---|---|\n")
	for _, r := range res {
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s |\n", r.c.name, r.lines, seconds(median(r.compile)),
			counts(r.compile), seconds(median(r.vet)), seconds(median(r.pkgVet)))
	}
	fmt.Fprint(w, "\nA minimal v1 agent (initialize, session/new, a prompt answered with one text chunk):\n\n")
	fmt.Fprint(w, "| agent | binary | stripped (-ldflags=-s -w) |\n|---|---|---|\n")
	for _, r := range res {
		fmt.Fprintf(w, "| %s | %s | %s |\n", r.c.name, megabytes(r.binary), megabytes(r.stripped))
	}
	ref := res[len(res)-1]
	fmt.Fprintf(w, "\nRatios against %s:\n", ref.c.name)
	for _, r := range res[:len(res)-1] {
		ratio(w, "compile CPU, "+r.c.name, float64(median(r.compile)), float64(median(ref.compile)), 0)
		ratio(w, "first go vet CPU, "+r.c.name, float64(median(r.vet)), float64(median(ref.vet)), 0)
		ratio(w, "vet on the package CPU, "+r.c.name, float64(median(r.pkgVet)), float64(median(ref.pkgVet)), 0)
		guard := 0.0
		if r.c.tags == "" {
			guard = binaryGuard
		}
		ratio(w, "agent binary, "+r.c.name, float64(r.binary), float64(ref.binary), guard)
	}
}

// ratio prints got/ref, and whether it meets target when target is set; it
// prints nothing when either was not measured.
func ratio(w io.Writer, what string, got, ref, target float64) {
	if got == 0 || ref == 0 {
		return
	}
	fmt.Fprintf(w, "  %-46s %5.2fx", what, got/ref)
	if target > 0 {
		verdict := "met"
		if got/ref > target {
			verdict = "MISSED"
		}
		fmt.Fprintf(w, "  (target <= %gx: %s)", target, verdict)
	}
	fmt.Fprintln(w)
}

func seconds(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

func counts(ds []time.Duration) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = fmt.Sprintf("%.2f", d.Seconds())
	}
	return strings.Join(s, " ")
}

func megabytes(n int64) string { return fmt.Sprintf("%.2f MB", float64(n)/1e6) }
