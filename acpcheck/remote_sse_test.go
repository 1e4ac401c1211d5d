package acpcheck

import "testing"

func TestSSEIDs(t *testing.T) {
	for _, tc := range []struct {
		ids  []string
		want string
	}{
		{[]string{"", ""}, "none of 2 events carried an id"},
		{[]string{"1", "2", "", "5"}, "3 of 4 events carried an id, increasing"},
		{[]string{"1", "3", "2"}, "3 of 3 events carried an id, not increasing"},
		{[]string{"1", "1"}, "2 of 2 events carried an id, not increasing"},
		{[]string{"a", "b"}, "2 of 2 events carried an id (not all integers)"},
		{[]string{"1", "x"}, "2 of 2 events carried an id (not all integers)"},
	} {
		var s sseIDs
		for _, id := range tc.ids {
			s.add(id)
		}
		if got := s.String(); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.ids, got, tc.want)
		}
	}
}
