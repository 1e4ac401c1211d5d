package bench

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/bench/workload"
	"github.com/acpgen/acpgen/generated/acpv1"
	acp "github.com/coder/acp-go-sdk"
)

// TestWorkload checks that the stream is deterministic and that every
// contender decodes every message to the same JSON value, so that the
// benchmarks compare equal work.
func TestWorkload(t *testing.T) {
	a, b := workload.Stream(300), workload.Stream(300)
	for i := range a {
		if !bytes.Equal(a[i].JSON, b[i].JSON) {
			t.Fatalf("message %d differs between two runs", i)
		}
	}
	kinds := map[workload.Kind]int{}
	for _, m := range a {
		kinds[m.Kind]++
		var ours acpv1.SessionNotification
		if err := json.Unmarshal(m.JSON, &ours); err != nil {
			t.Fatalf("acpgen: %v: %s", err, m.JSON)
		}
		var theirs acp.SessionNotification
		if err := json.Unmarshal(m.JSON, &theirs); err != nil {
			t.Fatalf("coder: %v: %s", err, m.JSON)
		}
		if _, err := direct(m.JSON, m.Kind); err != nil {
			t.Fatalf("direct: %v: %s", err, m.JSON)
		}
		out, err := json.Marshal(ours)
		if err != nil {
			t.Fatal(err)
		}
		var x, y any
		if json.Unmarshal(m.JSON, &x) != nil || json.Unmarshal(out, &y) != nil || !equalJSON(x, y) {
			t.Errorf("acpgen round trip changed %s into %s", m.JSON, out)
		}
	}
	if len(kinds) != 5 {
		t.Errorf("the stream has %d kinds of update, want 5: %v", len(kinds), kinds)
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
