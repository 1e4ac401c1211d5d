package names

import "strings"

// Stutter: the schema sometimes nests a name in itself. The "content"
// variant of ToolCallContent, the "command" variant of v2's AvailableCommand
// and the "resource" member of EmbeddedResource (whose definition the schema
// calls EmbeddedResourceResource) would read ToolCallContentContent,
// AvailableCommandCommand and EmbeddedResourceResource. One rule covers
// them: where a name repeats the words just before them, the repeat is
// written once and followed by Data, the word for what the outer value
// carries: ToolCallContentData, AvailableCommandData, EmbeddedResourceData.
// Names whose parts overlap without repeating the whole member keep the
// overlap once: Parent "PlanUpdate" and member "update_content" give
// PlanUpdateContent.

// stutterWord replaces a repeat that would leave a name equal to its parent.
const stutterWord = "Data"

// join composes the Go name of a member (a variant, a constant) from its
// parent's Go name and the member's schema name: the member's leading words
// that repeat the parent's trailing words are written once.
func join(parent, member string) string {
	m := exported(member)
	pw, mw := words(parent), words(m)
	k := overlap(pw, mw)
	if k == 0 {
		return parent + m
	}
	rest := strings.Join(mw[k:], "")
	if rest == "" {
		rest = stutterWord
	}
	return parent + rest
}

// destutter removes a trailing repeat from a schema name that nests itself:
// EmbeddedResourceResource → EmbeddedResourceData.
func destutter(name string) string {
	w := words(name)
	for k := len(w) / 2; k >= 1; k-- {
		if equalWords(w[len(w)-2*k:len(w)-k], w[len(w)-k:]) {
			return strings.Join(w[:len(w)-k], "") + stutterWord
		}
	}
	return name
}

// overlap returns the largest k such that the last k words of a are the
// first k words of b.
func overlap(a, b []string) int {
	for k := min(len(a), len(b)); k >= 1; k-- {
		if equalWords(a[len(a)-k:], b[:k]) {
			return k
		}
	}
	return 0
}

func equalWords(a, b []string) bool {
	for i := range a {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return len(a) == len(b)
}
