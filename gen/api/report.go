package api

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// classOrder is the order of the report's sections.
var classOrder = []Class{BreaksGo, BreaksWire, Compatible}

var classTitle = map[Class]string{
	BreaksGo:   "breaks Go code",
	BreaksWire: "breaks the wire",
	Compatible: "compatible",
}

// SortFindings orders findings by version, class, build tags (stable first)
// and change.
func SortFindings(fs []Finding) {
	rank := map[Class]int{}
	for i, c := range classOrder {
		rank[c] = i
	}
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		if a.Class != b.Class {
			return rank[a.Class] < rank[b.Class]
		}
		if ta, tb := tagKey(a), tagKey(b); ta != tb {
			return ta < tb
		}
		return a.Change < b.Change
	})
}

func tagKey(f Finding) string { return strings.Join(f.Features, ",") }

// Breaking reports whether a finding breaks Go code or the wire.
func Breaking(fs []Finding) bool {
	for _, f := range fs {
		if f.Class != Compatible {
			return true
		}
	}
	return false
}

// summary counts the findings of one version by class.
type summary struct {
	Version    string `json:"version"`
	BreaksGo   int    `json:"breaksGo"`
	BreaksWire int    `json:"breaksWire"`
	Compatible int    `json:"compatible"`
}

func summarize(fs []Finding) []summary {
	var out []summary
	for _, f := range fs {
		if len(out) == 0 || out[len(out)-1].Version != f.Version {
			out = append(out, summary{Version: f.Version})
		}
		s := &out[len(out)-1]
		switch f.Class {
		case BreaksGo:
			s.BreaksGo++
		case BreaksWire:
			s.BreaksWire++
		default:
			s.Compatible++
		}
	}
	return out
}

// WriteReport prints sorted findings: per version a summary line, then per
// class the changes grouped by the build tags that enable them, then per
// version and build tags the count of items added, removed and changed,
// by kind; identical revisions say so. With asJSON
// it prints {"breaking", "summary", "findings"} instead.
func WriteReport(w io.Writer, fs []Finding, asJSON bool) error {
	if asJSON {
		if fs == nil {
			fs = []Finding{}
		}
		sums := summarize(fs)
		if sums == nil {
			sums = []summary{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Breaking bool      `json:"breaking"`
			Summary  []summary `json:"summary"`
			Findings []Finding `json:"findings"`
		}{Breaking(fs), sums, fs})
	}
	if len(fs) == 0 {
		_, err := fmt.Fprintln(w, "no changes: both schema directories give the same Go API and the same wire format, in every version and with every build tag")
		return err
	}
	var b strings.Builder
	sums := summarize(fs)
	for _, s := range sums {
		fmt.Fprintf(&b, "%s: %d break Go code, %d break the wire, %d compatible\n", s.Version, s.BreaksGo, s.BreaksWire, s.Compatible)
	}
	var version string
	var class Class
	tags := "-"
	for _, f := range fs {
		if f.Version != version || f.Class != class {
			version, class, tags = f.Version, f.Class, "-"
			fmt.Fprintf(&b, "\n%s %s:\n", version, classTitle[class])
		}
		if t := tagKey(f); t != tags {
			tags = t
			if t == "" {
				t = "stable"
			}
			fmt.Fprintf(&b, "  [%s]\n", t)
		}
		fmt.Fprintf(&b, "    %s\n", f.Change)
	}
	b.WriteString(findingsSummary(fs))
	_, err := io.WriteString(w, b.String())
	return err
}

// Filter returns the findings of version (all when "") whose build tags
// the selection keeps: stable items always; unstable ones when features
// is "all", or names one of their tags ("none" keeps stable items alone).
func Filter(fs []Finding, version string, features []string, all bool) []Finding {
	var out []Finding
	for _, f := range fs {
		if (version == "" || f.Version == version) && keeps(f.Features, features, all) {
			out = append(out, f)
		}
	}
	return out
}

// keeps reports whether an item under tags (any one of them; none when it
// is stable) is in the selection.
func keeps(tags, features []string, all bool) bool {
	if len(tags) == 0 || all {
		return true
	}
	for _, t := range tags {
		if slices.Contains(features, t) {
			return true
		}
	}
	return false
}
