package pipeline

import "testing"

// TestPinnedTurns: the pinned schemas of both versions meet what the turn
// runtime needs, so that both packages carry it.
func TestPinnedTurns(t *testing.T) {
	v1, v2, _ := pinnedPair(t)
	for _, p := range []struct {
		name  string
		turns bool
	}{{"v1", v1.Turns}, {"v2", v2.Turns}} {
		if !p.turns {
			t.Errorf("the pinned %s package has no turn runtime", p.name)
		}
	}
}
