package acpcheck

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// WriteJUnit writes the report as JUnit XML, one test suite per tier and a
// test case per verdict: a failed MUST is a failure of type MUST, a failed
// SHOULD one of type SHOULD (CI may choose to ignore those), and what was
// not exercised or not applicable is skipped.
func (r *Report) WriteJUnit(w io.Writer) error {
	var out junitSuites
	for _, t := range Tiers {
		s := junitSuite{Name: fmt.Sprintf("acpcheck %s %s", r.Mode, t), Time: fmt.Sprintf("%.3f", r.Duration.Seconds())}
		for _, v := range r.Verdicts {
			if v.Tier != t {
				continue
			}
			name := v.ID.String()
			if v.Version != 0 {
				name = fmt.Sprintf("%s (v%d)", v.ID, v.Version)
			}
			c := junitCase{Name: name, ClassName: "acpcheck." + r.Mode, SystemOut: v.Text + "\n" + v.URL}
			switch v.Status {
			case Fail:
				s.Failures++
				c.Failure = &junitFailure{Message: v.Detail, Type: string(v.Tier), Body: transcriptText(v.Transcript)}
			case NotExercised, NotApplicable:
				s.Skipped++
				c.Skipped = &junitSkipped{Message: string(v.Status) + ": " + v.Detail}
			}
			s.Tests++
			s.Cases = append(s.Cases, c)
		}
		out.Suites = append(out.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// transcriptText renders a transcript one line per entry.
func transcriptText(lines []Line) string {
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%8.3fs %s %s\n", l.At.Seconds(), l.Dir, l.Text)
	}
	return b.String()
}
