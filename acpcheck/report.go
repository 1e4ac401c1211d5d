package acpcheck

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
)

// A Status is the outcome of one requirement in a run.
type Status string

// The statuses. NotExercised says the run could not put the rule to the
// test (a cancel that arrived after the turn had ended, an agent that asked
// no permission); NotApplicable says the rule binds a capability the
// program did not advertise, or a mode the run skipped.
const (
	Pass          Status = "pass"
	Fail          Status = "fail"
	NotExercised  Status = "not exercised"
	NotApplicable Status = "not applicable"
)

// A Line is one line of a transcript: what was sent (">") or received
// ("<") on a connection, or a note of the kit ("#"), with the time since
// the connection began.
type Line struct {
	Dir  string        `json:"dir"`
	At   time.Duration `json:"at_ns"`
	Text string        `json:"text"`
}

// A Verdict is the judgement of one requirement in one run; a requirement
// checked on several connections (v1 and v2) has a verdict for each.
type Verdict struct {
	Requirement
	Status     Status `json:"status"`
	Version    int    `json:"version,omitempty"`    // the protocol version it was judged under, 0 for none
	Detail     string `json:"detail,omitempty"`     // why, in words
	Transcript []Line `json:"transcript,omitempty"` // the connection's lines, for failures
}

// A Report is the result of a run.
type Report struct {
	Mode     string        `json:"mode"`   // agent, client or remote
	Target   string        `json:"target"` // the command or URL checked
	Started  time.Time     `json:"started"`
	Duration time.Duration `json:"duration_ns"`
	Verdicts []Verdict     `json:"verdicts"`

	mu sync.Mutex
}

// OK reports whether every MUST holds: no MUST verdict failed, and no
// per-capability one (a capability's rules are MUSTs for a program that
// advertises it).
func (r *Report) OK() bool {
	for _, v := range r.Verdicts {
		if (v.Tier == Must || v.Tier == PerCapability) && v.Status == Fail {
			return false
		}
	}
	return true
}

// Failed returns the verdicts that failed, of every tier.
func (r *Report) Failed() []Verdict {
	var out []Verdict
	for _, v := range r.Verdicts {
		if v.Status == Fail {
			out = append(out, v)
		}
	}
	return out
}

// Find returns the verdicts of the requirement with the id.
func (r *Report) Find(id ID) []Verdict {
	var out []Verdict
	for _, v := range r.Verdicts {
		if v.ID == id {
			out = append(out, v)
		}
	}
	return out
}

// add records a verdict; a failure keeps the transcript it is given.
func (r *Report) add(id ID, version int, st Status, transcript []Line, format string, args ...any) {
	req, ok := Lookup(id)
	if !ok {
		panic("acpcheck: no requirement " + id.String())
	}
	v := Verdict{Requirement: req, Status: st, Version: version, Detail: fmt.Sprintf(format, args...)}
	if st == Fail {
		v.Transcript = transcript
	}
	r.mu.Lock()
	r.Verdicts = append(r.Verdicts, v)
	r.mu.Unlock()
}

// sortVerdicts orders the verdicts by requirement id, then version.
func (r *Report) sortVerdicts() {
	sort.SliceStable(r.Verdicts, func(i, j int) bool {
		a, b := r.Verdicts[i], r.Verdicts[j]
		if a.ID != b.ID {
			return a.ID.String() < b.ID.String()
		}
		return a.Version < b.Version
	})
}

// Summary counts the verdicts of a tier by status.
type Summary map[Status]int

// Summaries counts the verdicts of each tier by status.
func (r *Report) Summaries() map[Tier]Summary {
	out := map[Tier]Summary{}
	for _, t := range Tiers {
		out[t] = Summary{}
	}
	for _, v := range r.Verdicts {
		out[v.Tier][v.Status]++
	}
	return out
}

// Text returns the report for a terminal: a line per verdict that is not
// a pass, then the summary per tier and the run's duration.
func (r *Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "acpcheck %s %s\n", r.Mode, r.Target)
	for _, v := range r.Verdicts {
		if v.Status == Pass {
			continue
		}
		ver := ""
		if v.Version != 0 {
			ver = fmt.Sprintf(" (v%d)", v.Version)
		}
		fmt.Fprintf(&b, "  %-14s %-10s %s%s: %s\n", strings.ToUpper(string(v.Status)), v.Tier, v.ID, ver, v.Detail)
	}
	sums := r.Summaries()
	for _, t := range Tiers {
		s := sums[t]
		fmt.Fprintf(&b, "%-10s %d pass, %d fail, %d not exercised, %d not applicable\n",
			t, s[Pass], s[Fail], s[NotExercised], s[NotApplicable])
	}
	result := "PASS: every MUST holds"
	if !r.OK() {
		result = "FAIL: a MUST does not hold"
	}
	fmt.Fprintf(&b, "%s (%d verdicts in %.2fs)\n", result, len(r.Verdicts), r.Duration.Seconds())
	return b.String()
}

// jsonReport is the JSON form of a report.
type jsonReport struct {
	Mode     string           `json:"mode"`
	Target   string           `json:"target"`
	Started  time.Time        `json:"started"`
	Seconds  float64          `json:"seconds"`
	OK       bool             `json:"ok"`
	Summary  map[Tier]Summary `json:"summary"`
	Verdicts []Verdict        `json:"verdicts"`
}

// WriteJSON writes the report as one JSON document: the summary per tier,
// whether every MUST holds, and each verdict with the transcript of every
// failure.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(jsonReport{Mode: r.Mode, Target: r.Target, Started: r.Started,
		Seconds: r.Duration.Seconds(), OK: r.OK(), Summary: r.Summaries(), Verdicts: r.Verdicts})
}
