package acphttp

import "slices"

// keySet is a set of strings that stays a slice while it is small, as it
// is on most connections (a few sessions, a few requests), and takes a
// map only past maxFewKeys: an idle connection keeps no map for it.
type keySet struct {
	few  []string
	many map[string]struct{}
}

// maxFewKeys bounds the keys a keySet holds in its slice.
const maxFewKeys = 16

func (s *keySet) has(k string) bool {
	if s.many != nil {
		_, ok := s.many[k]
		return ok
	}
	return slices.Contains(s.few, k)
}

// add adds k, which s does not have.
func (s *keySet) add(k string) {
	if s.many == nil && len(s.few) < maxFewKeys {
		s.few = append(s.few, k)
		return
	}
	if s.many == nil {
		s.many = make(map[string]struct{}, 2*maxFewKeys)
		for _, f := range s.few {
			s.many[f] = struct{}{}
		}
		s.few = nil
	}
	s.many[k] = struct{}{}
}

func (s *keySet) remove(k string) {
	if s.many != nil {
		delete(s.many, k)
		return
	}
	if i := slices.Index(s.few, k); i >= 0 {
		s.few = slices.Delete(s.few, i, i+1)
	}
}

// keys returns the keys of s, sorted.
func (s *keySet) keys() []string {
	out := slices.Clone(s.few)
	for k := range s.many {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
