package ir

import (
	"errors"
	"regexp/syntax"
	"strings"
)

// Pattern reports whether the JSON Schema pattern expr, an ECMA-262
// regular expression, means the same in Go's regexp, which the generated
// decoders match it with, and the reason when it does not or may not.
// Accepted: literals, classes of characters from the Basic Multilingual
// Plane (ECMA-262 without the u flag matches UTF-16 code units, so a class
// that takes in more, like [^a] or \D, matches otherwise), \d and \w, ^
// and $ (the start and end of the string in both), groups, alternation
// and repetition. Refused: . (ECMA-262 leaves out \r and two more line
// ends), \s and \S (ECMA-262 spaces are Unicode's), \b and \B, flags, and
// whatever Go's syntax has no meaning for (lookaround, back references).
func Pattern(expr string) error {
	for _, bad := range []string{`\s`, `\S`, `(?`} {
		if strings.Contains(expr, bad) {
			return errors.New("acpgen checks only patterns that mean the same in Go's regular expressions and in ECMA-262, and " + bad + " does not")
		}
	}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return errors.New("Go's regular expressions cannot read it: " + err.Error())
	}
	return portable(re)
}

// portable reports the first part of re whose meaning may differ between
// Go and ECMA-262.
func portable(re *syntax.Regexp) error {
	switch re.Op {
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return errors.New("acpgen checks only patterns that mean the same in Go's regular expressions and in ECMA-262, and . does not (write a class)")
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginLine, syntax.OpEndLine:
		return errors.New("acpgen checks only patterns that mean the same in Go's regular expressions and in ECMA-262, and word or line boundaries do not")
	case syntax.OpCharClass:
		for i := 1; i < len(re.Rune); i += 2 {
			if re.Rune[i] > 0xFFFF {
				return errors.New("acpgen checks only patterns that mean the same in Go's regular expressions and in ECMA-262, and a class with characters beyond U+FFFF (a negated one, \\D, \\W) does not")
			}
		}
	}
	for _, sub := range re.Sub {
		if err := portable(sub); err != nil {
			return err
		}
	}
	return nil
}
