package write

import (
	"fmt"
	"strings"
)

// maxDiffCells bounds the work of the line diff; past it the changed
// region is shown whole.
const maxDiffCells = 4 << 20

// Diff renders the changes as unified diffs, for `acpgen -check`.
func Diff(changes []Change) string {
	var b strings.Builder
	for _, c := range changes {
		switch {
		case c.Old == nil:
			fmt.Fprintf(&b, "--- /dev/null\n+++ %s\n", c.Path)
		case c.New == nil:
			fmt.Fprintf(&b, "--- %s\n+++ /dev/null\n", c.Path)
		default:
			fmt.Fprintf(&b, "--- %s (on disk)\n+++ %s (generated)\n", c.Path, c.Path)
		}
		b.WriteString(lineDiff(lines(c.Old), lines(c.New)))
	}
	return b.String()
}

func lines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// lineDiff returns one hunk covering the region between the common prefix
// and suffix of a and b, with a longest-common-subsequence alignment inside
// it when that is small enough.
func lineDiff(a, b []string) string {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	x, y := a[pre:len(a)-suf], b[pre:len(b)-suf]
	var out strings.Builder
	fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", pre+1, len(x), pre+1, len(y))
	emit := func(sign string, s string) {
		out.WriteString(sign + s + "\n")
	}
	if len(x)*len(y) > maxDiffCells {
		for _, s := range x {
			emit("-", s)
		}
		for _, s := range y {
			emit("+", s)
		}
		return out.String()
	}
	// lcs[i][j] is the LCS length of x[i:] and y[j:].
	lcs := make([][]int32, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			emit(" ", x[i])
			i++
			j++
		case j < len(y) && (i == len(x) || lcs[i][j+1] >= lcs[i+1][j]):
			emit("+", y[j])
			j++
		default:
			emit("-", x[i])
			i++
		}
	}
	return out.String()
}
