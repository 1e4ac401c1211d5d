package ir

import "slices"

// ArgumentLead lists, first to last, the members a constructor takes before
// the others, wherever it has them: the session a value belongs to, then
// the directory it works in. The other required members follow in schema
// order. One rule for every constructor, so that arguments of one type
// (a session id and a path are both strings) cannot trade places from one
// constructor to the next: NewLoadSessionRequest(sessionID, cwd,
// mcpServers), NewResumeSessionRequest(sessionID, cwd),
// NewNewSessionRequest(cwd, mcpServers).
var ArgumentLead = []string{"sessionId", "cwd"}

// leadRank is the rank of a member in ArgumentLead, or len(ArgumentLead)
// for the others.
func leadRank(f *Field) int {
	if i := slices.Index(ArgumentLead, f.JSONName); i >= 0 {
		return i
	}
	return len(ArgumentLead)
}

// argumentOrder sorts fields by ArgumentLead, keeping schema order among
// equals.
func argumentOrder(fields []*Field) {
	slices.SortStableFunc(fields, func(a, b *Field) int { return leadRank(a) - leadRank(b) })
}

// argumentPermutation returns the order of a union constructor's
// parameters when ArgumentLead moves one of the variant's members before
// the union's shared ones: the indexes, into shared then own, of the
// parameters in the order the constructor takes them; nil when that is
// the natural order.
func argumentPermutation(shared, own []*Field) []int {
	all := append(append([]*Field(nil), shared...), own...)
	order := make([]int, len(all))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return leadRank(all[a]) - leadRank(all[b]) })
	for i, o := range order {
		if i != o {
			return order
		}
	}
	return nil
}
