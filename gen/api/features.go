package api

import (
	"encoding/json"
	"fmt"
	"go/build/constraint"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/acpgen/acpgen/gen/ir"
)

// Line is one API element and the features that bring it in.
type Line struct {
	Text string `json:"line"`
	// Features are the build tags, any of which adds the line; empty for the
	// stable surface, ["unstable"] for what only the umbrella tag adds.
	Features []string `json:"features,omitempty"`
}

// String renders the line as in a surface file: the features follow "#".
func (l Line) String() string {
	if len(l.Features) == 0 {
		return l.Text
	}
	return l.Text + " #" + strings.Join(l.Features, ",")
}

// tagsIn lists the feature build tags the .go files in dir mention, sorted,
// the umbrella tag left out.
func tagsIn(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(data), "\n") {
			if !constraint.IsGoBuild(line) {
				continue
			}
			expr, err := constraint.Parse(line)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			expr.Eval(func(tag string) bool {
				if strings.HasPrefix(tag, ir.FeaturePrefix) {
					seen[tag] = true
				}
				return false
			})
		}
	}
	var tags []string
	for t := range seen {
		tags = append(tags, t)
	}
	sort.Strings(tags)
	return tags, nil
}

// Tagged returns the surface of the package in dir with every line tagged:
// the lines of the build without tags are stable; a line that a feature tag
// adds carries that feature; a line only the umbrella tag adds carries it.
func Tagged(dir string) ([]Line, error) {
	features, err := tagsIn(dir)
	if err != nil {
		return nil, err
	}
	stable, err := packageSurface(dir, nil)
	if err != nil {
		return nil, err
	}
	base := set(stable)
	by := map[string][]string{}
	for _, f := range features {
		s, err := packageSurface(dir, []string{f})
		if err != nil {
			return nil, err
		}
		for _, l := range s {
			if !base[l] {
				by[l] = append(by[l], f)
			}
		}
	}
	all, err := packageSurface(dir, []string{ir.Umbrella})
	if err != nil {
		return nil, err
	}
	var out []Line
	for _, l := range all {
		switch {
		case base[l]:
			out = append(out, Line{Text: l})
		case by[l] != nil:
			out = append(out, Line{Text: l, Features: by[l]})
		default:
			out = append(out, Line{Text: l, Features: []string{ir.Umbrella}})
		}
	}
	for _, l := range stable {
		if !set(all)[l] {
			return nil, fmt.Errorf("%s: %q is in the build without tags but not with %q", dir, l, ir.Umbrella)
		}
	}
	return out, nil
}

func set(lines []string) map[string]bool {
	m := make(map[string]bool, len(lines))
	for _, l := range lines {
		m[l] = true
	}
	return m
}

// lineChange is one line that differs between two surfaces.
type lineChange struct {
	Op string `json:"op"` // "+" added, "-" removed
	Line
}

// diffLines compares two tagged surfaces. A line whose features changed counts as
// removed and added.
func diffLines(old, new []Line) []lineChange {
	key := func(l Line) string { return l.String() }
	in := func(ls []Line) map[string]bool {
		m := map[string]bool{}
		for _, l := range ls {
			m[key(l)] = true
		}
		return m
	}
	inOld, inNew := in(old), in(new)
	var out []lineChange
	for _, l := range old {
		if !inNew[key(l)] {
			out = append(out, lineChange{"-", l})
		}
	}
	for _, l := range new {
		if !inOld[key(l)] {
			out = append(out, lineChange{"+", l})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Text != out[j].Text {
			return out[i].Text < out[j].Text
		}
		return out[i].Op < out[j].Op
	})
	return out
}

// Unstable returns the lines of a tagged surface that some feature adds.
func Unstable(lines []Line) []lineChange {
	var out []lineChange
	for _, l := range lines {
		if len(l.Features) > 0 {
			out = append(out, lineChange{"+", l})
		}
	}
	return out
}

// Write prints changes as text, or as JSON in the shape of WriteReport's:
// {"breaking": false, "summary", "findings"}, where the summary counts the
// lines each build tag adds, by kind, and the findings are the lines.
func Write(w io.Writer, changes []lineChange, asJSON bool) error {
	if asJSON {
		if changes == nil {
			changes = []lineChange{}
		}
		type tagSummary struct {
			Features []string       `json:"features"`
			Kinds    map[string]int `json:"kinds"`
		}
		var sums []tagSummary
		byTag := map[string]int{}
		for _, c := range changes {
			key := strings.Join(c.Line.Features, ",")
			i, ok := byTag[key]
			if !ok {
				i, byTag[key] = len(sums), len(sums)
				sums = append(sums, tagSummary{c.Line.Features, map[string]int{}})
			}
			sums[i].Kinds[lineKind(c.Line.Text)]++
		}
		if sums == nil {
			sums = []tagSummary{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Breaking bool         `json:"breaking"`
			Summary  []tagSummary `json:"summary"`
			Findings []lineChange `json:"findings"`
		}{false, sums, changes})
	}
	for _, c := range changes {
		if _, err := fmt.Fprintf(w, "%s %s\n", c.Op, c.Line); err != nil {
			return err
		}
	}
	return nil
}

// FilterLines returns the changes whose build tags the selection keeps
// (see Filter).
func FilterLines(changes []lineChange, features []string, all bool) []lineChange {
	var out []lineChange
	for _, c := range changes {
		if keeps(c.Line.Features, features, all) {
			out = append(out, c)
		}
	}
	return out
}

// Format renders a tagged surface as the text of a surface file.
func Format(lines []Line) []byte {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.String())
		b.WriteByte('\n')
	}
	return []byte(b.String())
}
