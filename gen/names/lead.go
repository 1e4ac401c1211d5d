package names

import (
	"regexp"
	"strings"
	"unicode"
)

// Lead returns doc (Go doc text) so that it begins with a sentence about
// ident, in the form Go doc comments use. Where the schema's first sentence
// is a fragment, one rule decides the verb that joins it to ident:
//
//	"Cancels an ongoing request."          → "X cancels an ongoing request."
//	"Allow this operation only this time." → "X allows this operation only this time."
//	"Whether the agent …"                  → "X reports whether the agent …"
//	"How the agent combines prompts."      → "X says how the agent combines prompts."
//	"The _meta property is reserved …"     → "X is reserved …"
//	"The tool call is running."            → "X means the tool call is running."
//	"Parse error: Invalid JSON."           → "ErrorCodeParseError means invalid JSON."
//	"Reading files or data."               → "X is for reading files or data."
//	"Different types of updates …"         → "X is one of the updates …"
//	"Capabilities supported by the agent." → "X holds the capabilities supported by the agent."
//	"The contents of a resource."          → "X is the contents of a resource."
//	"Unique identifier for …"              → "X is the unique identifier for …"
//
// A first paragraph without a full stop gets one. A doc whose first
// sentence already has ident as its subject is returned as it is.
func Lead(ident, doc string) string {
	doc = strings.TrimSpace(doc)
	switch {
	case doc == "":
		return ""
	case strings.HasPrefix(doc, "Deprecated:"):
		return ident + " is deprecated.\n\n" + doc
	case strings.HasPrefix(doc, "Unstable:") || strings.HasPrefix(doc, "\t") || strings.HasPrefix(doc, "  "):
		return ident + " is described below.\n\n" + doc
	}
	para, rest, more := strings.Cut(doc, "\n\n")
	if more {
		rest = "\n\n" + rest
	}
	return leadParagraph(ident, withFullStop(para)) + rest
}

// withFullStop ends p with a full stop unless it ends a sentence or
// introduces what follows (":").
func withFullStop(p string) string {
	if strings.ContainsAny(p[len(p)-1:], ".!?:") {
		return p
	}
	return p + "."
}

// sentence is the first sentence of a paragraph as words: raw keeps them
// as written, low in lower case without surrounding punctuation.
type sentence struct{ raw, low []string }

func (s sentence) word(i int) string {
	if i < len(s.low) {
		return s.low[i]
	}
	return ""
}

func firstWords(p string) sentence {
	var s sentence
	for _, w := range strings.Fields(p) {
		s.raw = append(s.raw, w)
		s.low = append(s.low, strings.ToLower(strings.Trim(w, `.,:;()"`)))
		if strings.HasSuffix(w, ".") && len(w) > 2 {
			break
		}
	}
	return s
}

var (
	// selfSubject is a first sentence whose subject is the documented
	// member itself: "The _meta property is reserved …".
	selfSubject = regexp.MustCompile(`^(?:The|This) (?:\S+ )?(?:property|field) `)
	// classifier begins a plural noun phrase that names the kinds of
	// something: the documented type is one of them.
	classifier = regexp.MustCompile(`(?i)^(?:the )?(?:different )?(?:types|kinds) of `)
)

// leadParagraph rewrites the first paragraph p of a doc to begin with ident.
func leadParagraph(ident, p string) string {
	s := firstWords(p)
	first := s.word(0)
	switch {
	case hasSubject(ident, s):
		return p
	case selfSubject.MatchString(p) && clauseVerbs[s.word(len(strings.Fields(selfSubject.FindString(p))))]:
		return ident + " " + p[len(selfSubject.FindString(p)):]
	}
	if rest, ok := cutLabel(ident, p); ok {
		return leadParagraph(ident, rest)
	}
	if v, ok := verbFirst(s); ok {
		return ident + " " + v + andVerb(p[len(s.raw[0]):])
	}
	switch {
	case first == "whether":
		return ident + " reports " + lowerWord(p)
	case first == "how" || first == "what" || first == "which" || first == "when":
		return ident + " says " + lowerWord(p)
	case gerund(s):
		return ident + " is for " + lowerWord(p)
	case strings.HasSuffix(first, "ed") && prepositions[s.word(1)]:
		return ident + " is " + lowerWord(p)
	case isClause(s):
		if subject, rest, ok := pluralSubject(p, s); ok {
			return ident + " is one of the " + lowerWord(subject) + " that " + rest
		}
		if roles[first] {
			return ident + " means the " + lowerWord(p)
		}
		return ident + " means " + lowerWord(p)
	case first == "on" || first == "in":
		if i := strings.Index(p, ", "); i > 0 && articles[firstWords(p[i+2:]).word(0)] {
			return ident + " is, " + lowerWord(p[:i]) + ", " + p[i+2:]
		}
	}
	return ident + nounPhrase(p, s)
}

// hasSubject reports whether the first sentence already begins with ident
// followed by a verb ("X produced by the call.", "X replaces …"), not by a
// noun ("Text content."). Lead's own sentences begin so: Lead(x, Lead(x, d))
// is Lead(x, d).
func hasSubject(ident string, s sentence) bool {
	if len(s.raw) < 2 || strings.TrimRight(s.raw[0], ".,:") != ident {
		return false
	}
	v, next := s.word(1), s.word(2)
	if clauseVerbs[v] || strings.HasSuffix(v, "ed") || threeS[v] && !participle(s, 2) {
		return true
	}
	// "X replaces the …", not "X capabilities supported by …".
	return strings.HasSuffix(v, "s") && !strings.HasSuffix(v, "ss") &&
		next != "" && !prepositions[next] && !strings.HasSuffix(next, "ed")
}

// cutLabel drops a label that repeats the end of ident ("Parse error:
// Invalid JSON …" documenting ErrorCodeParseError).
func cutLabel(ident, p string) (string, bool) {
	label, rest, ok := strings.Cut(p, ": ")
	if !ok || strings.Count(label, " ") > 3 || rest == "" {
		return "", false
	}
	if name := exported(label); name == "" || !strings.HasSuffix(ident, name) {
		return "", false
	}
	return rest, true
}

// verbFirst returns the third-person form of a first word that is a verb
// with its object after it: "Cancels a request", "Allow this operation",
// "Logs out".
func verbFirst(s sentence) (string, bool) {
	first, second := s.word(0), s.word(1)
	if threeS[first] && !participle(s, 1) {
		return first, true
	}
	if v, ok := imperatives[first]; ok && (objects[second] || plural(second)) {
		return v, true
	}
	if !objects[second] {
		return "", false
	}
	// "Forks an existing session", but not "Commands the agent can run".
	if len(first) > 3 && strings.HasSuffix(first, "s") && !strings.HasSuffix(first, "ss") &&
		(second == "whether" || !(clauseVerbs[s.word(3)] || clauseVerbs[s.word(4)])) {
		return first, true
	}
	return "", false
}

// participle reports whether word i of s is a past participle that begins
// a phrase after a noun: "Requests exchanged between peers", not "Requests
// structured input".
func participle(s sentence, i int) bool {
	return strings.HasSuffix(s.word(i), "ed") && prepositions[s.word(i+1)]
}

// pluralSubject splits a clause about a plural whose verb is in the plural
// ("Content blocks represent …"): the documented item is one of them.
func pluralSubject(p string, s sentence) (subject, rest string, ok bool) {
	for i := 1; i < len(s.low) && i < 4; i++ {
		if pluralVerbs[s.low[i]] && plural(s.low[i-1]) && !articles[s.word(0)] {
			subject = strings.Join(s.raw[:i], " ")
			return subject, strings.TrimPrefix(p, subject+" "), true
		}
	}
	return "", "", false
}

// andVerb puts a second imperative joined by "and" in the third person:
// "Allow this and remember the choice".
func andVerb(p string) string {
	before, after, ok := strings.Cut(p, " and ")
	if !ok {
		return p
	}
	verb, rest, _ := strings.Cut(after, " ")
	if v, ok := imperatives[verb]; ok {
		return before + " and " + v + " " + rest
	}
	return p
}

// gerund reports whether the sentence begins with a verb in -ing that has
// an object: "Reading files", "Switching the mode", not "Working directory".
func gerund(s sentence) bool {
	return ingWord(s.word(0))
}

// ingWord reports whether w is a verb in -ing ("reading"), not a noun
// ("string", "thought/reasoning").
func ingWord(w string) bool {
	return strings.HasSuffix(w, "ing") && !strings.HasSuffix(w, "thing") && !strings.ContainsAny(w, "/-") && !nouns[w]
}

// isClause reports whether the first sentence has a subject and a verb
// ("The tool call is running", "Agent supports images") rather than being
// a noun phrase ("The session this request is tied to", "Tools that can be
// invoked").
func isClause(s sentence) bool {
	switch s.word(0) {
	case "all", "any", "no", "only":
		for _, w := range s.low[1:] {
			if w == "is" || w == "are" {
				return true
			}
		}
		return false
	}
	for i := 1; i < len(s.low) && i <= 10; i++ {
		w := s.low[i]
		switch {
		case strings.HasPrefix(s.raw[i], "(") || s.raw[i] == "-":
			return false
		case relatives[w]:
			return false
		case objects[w] && !prepositions[s.low[i-1]]:
			return false
		case participles[w] && !strings.HasPrefix(s.raw[i], `"`):
			if articles[s.word(0)] {
				return true
			}
		case clauseVerbs[w]:
			return true
		}
	}
	return false
}

// nounPhrase joins a noun phrase to the identifier before it: "is the",
// "holds the" for a plural, "is one of the" for the kinds of something.
func nounPhrase(p string, s sentence) string {
	first := s.word(0)
	head := headNoun(s)
	switch {
	case classifier.MatchString(p):
		return " is one of the " + p[len(classifier.FindString(p)):]
	case head == "categories" || head == "reasons":
		if articles[first] {
			p = p[len(s.raw[0])+1:]
		}
		return " is one of the " + lowerWord(p)
	case first == "all":
		return " is one of the " + p[len(s.raw[0])+1:]
	case first == "one" && s.word(1) == "or":
		return " holds " + lowerWord(p)
	case first == "one":
		return " is " + lowerWord(p)
	case articles[first] && plural(head):
		return " holds " + lowerWord(p)
	case articles[first] || strings.HasSuffix(first, "thing"):
		return " is " + lowerWord(p)
	case plural(head):
		return " holds the " + lowerWord(p)
	case unicode.IsLetter([]rune(p)[0]):
		return " is the " + lowerWord(p)
	}
	return " is described below.\n\n" + p
}

// headNoun is the last word of the noun phrase that begins the sentence,
// before a preposition, a relative clause, a participle or punctuation.
func headNoun(s sentence) string {
	head := ""
	for i, w := range s.low {
		if i == 0 && articles[w] {
			continue
		}
		if head != "" && (prepositions[w] || relatives[w] || objects[w] || clauseVerbs[w] ||
			strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ly") || ingWord(w)) {
			break
		}
		head = w
		if strings.ContainsAny(s.raw[i][len(s.raw[i])-1:], ".,:;)") {
			break
		}
	}
	return head
}

// name reports whether w is written as a name: a capital, then a lower
// case letter ("Vertex", "OpenAI"), not an initialism ("API").
func name(w string) bool {
	r := []rune(w)
	return len(r) > 1 && unicode.IsUpper(r[0]) && unicode.IsLower(r[1])
}

// plural reports whether a noun is plural: "capabilities", not "status".
func plural(noun string) bool {
	if len(noun) < 4 || !strings.HasSuffix(noun, "s") {
		return false
	}
	for _, end := range []string{"ss", "us", "is", "ics"} {
		if strings.HasSuffix(noun, end) {
			return false
		}
	}
	return true
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

var (
	// threeS are verbs a description may begin with in the third person
	// that could not be read as a plural noun.
	threeS = set("allows", "cancels", "configures", "contains", "controls", "creates", "defines",
		"describes", "determines", "enables", "executes", "gets", "handles", "identifies",
		"indicates", "kills", "lists", "loads", "logs", "notifies", "provides", "reads", "releases",
		"represents", "reports", "requests", "returns", "selects", "sends", "sets", "specifies",
		"starts", "stops", "waits", "writes")
	// clauseVerbs after a description's first word mark a clause ("Agent
	// supports …", "Compaction has started"), not a noun phrase.
	clauseVerbs = set("is", "are", "has", "have", "was", "were", "can", "may", "must", "should",
		"will", "supports", "needs", "requires", "wants", "uses", "represent", "represents",
		"describe", "describes", "contain", "contains", "allow", "allows", "appear", "define",
		"defines", "indicate", "indicates", "provide", "provides", "been", "handles", "knows", "runs", "carries")
	// pluralVerbs are the verbs of clauseVerbs in the plural.
	pluralVerbs = set("represent", "describe", "contain", "allow", "define", "indicate", "provide")
	// participles are past tenses that are verbs after "The user", and
	// adjectives after a noun ("value accepted in …").
	participles = set("accepted", "rejected", "cancelled", "declined")
	// objects are the words an object may begin with after a verb.
	objects = set("a", "an", "the", "this", "these", "its", "their", "all", "whether", "out")
	// roles are the parties of the protocol, which a sentence names with
	// "the" ("Agent supports images" → "X means the agent supports images").
	roles = set("agent", "client", "user")
	// articles begin a noun phrase.
	articles  = set("a", "an", "the")
	relatives = set("that", "which", "who", "whose", "where", "why", "what", "how")
	// nouns are words in -ing that do not begin a gerund phrase.
	nouns        = set("string", "working", "setting", "encoding", "pending", "heading", "warning")
	prepositions = set("of", "for", "to", "in", "on", "with", "by", "from", "about", "into",
		"within", "as", "after", "before", "during", "between")
	// imperatives are verbs a description of an action may begin with,
	// with their third-person forms: "Replace the content" documents a
	// member that replaces it.
	imperatives = map[string]string{
		"add": "adds", "allow": "allows", "embed": "embeds", "reject": "rejects",
		"filter": "filters", "remember": "remembers", "remove": "removes", "replace": "replaces",
		"replay": "replays", "set": "sets",
		"update": "updates", "use": "uses",
	}
)

// lowerWord lowers the first letter of s unless its first word is an
// initialism or a name in capitals ("MIME type", "JSON-RPC", "OpenAI") or
// begins a name of several words ("Google Vertex AI").
func lowerWord(s string) string {
	r := []rune(s)
	first, rest, _ := strings.Cut(s, " ")
	next, _, _ := strings.Cut(rest, " ")
	if len(r) > 1 && unicode.IsUpper(r[0]) && (strings.IndexFunc(first[1:], unicode.IsUpper) >= 0 ||
		unicode.IsDigit(r[1]) || name(next) && !articles[strings.ToLower(first)]) {
		return s
	}
	r[0] = unicode.ToLower(r[0])
	return string(r)
}
