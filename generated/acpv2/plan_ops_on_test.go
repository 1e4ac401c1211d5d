//go:build unstable_plan_operations || unstable

package acpv2

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/internal/jsontest"
)

// planOpsBuild reports whether plan operations are built.
const planOpsBuild = true

func TestPlanOpsOnTypedPlanContent(t *testing.T) {
	t.Run("markdown", func(t *testing.T) {
		n, c := planOpsContent(t, planOpsMarkdownInput)
		switch p := c.(type) {
		case *PlanUpdateContentMarkdown:
			if p.PlanID != "p1" {
				t.Errorf("PlanID = %q, want p1", p.PlanID)
			}
			if p.Content != "# Plan\n- [ ] write tests" {
				t.Errorf("Content = %q", p.Content)
			}
			if string(p.Meta) != `{"n":9007199254740993}` {
				t.Errorf("Meta = %s", p.Meta)
			}
		default:
			t.Fatalf("plan content is %T, want *PlanUpdateContentMarkdown", c)
		}
		if string(n.Meta) != `{"trace":"t1"}` {
			t.Errorf("notification Meta = %s", n.Meta)
		}
		jsontest.AssertSame(t, jsontest.Marshal(t, n), []byte(planOpsMarkdownInput))
	})
	t.Run("file", func(t *testing.T) {
		n, c := planOpsContent(t, planOpsFileInput)
		switch p := c.(type) {
		case *PlanUpdateContentFile:
			if p.PlanID != "p2" {
				t.Errorf("PlanID = %q, want p2", p.PlanID)
			}
			if p.URI != "file:///home/user/project/PLAN.md" {
				t.Errorf("URI = %q", p.URI)
			}
		default:
			t.Fatalf("plan content is %T, want *PlanUpdateContentFile", c)
		}
		jsontest.AssertSame(t, jsontest.Marshal(t, n), []byte(planOpsFileInput))
	})
}

func TestPlanOpsOnPlanRemoved(t *testing.T) {
	n := planOpsDecode(t, planOpsRemovedInput)
	switch u := n.Update.Value.(type) {
	case *SessionUpdatePlanRemoved:
		if u.PlanID != "p1" {
			t.Errorf("PlanID = %q, want p1", u.PlanID)
		}
		if string(u.Meta) != `{"why":"done"}` {
			t.Errorf("Meta = %s", u.Meta)
		}
	default:
		t.Fatalf("update is %T, want *SessionUpdatePlanRemoved", n.Update.Value)
	}
	jsontest.AssertSame(t, jsontest.Marshal(t, n), []byte(planOpsRemovedInput))
}

// Plan content built in Go is written with its tags and plan id.
func TestPlanOpsOnEncodeFromGo(t *testing.T) {
	n := UpdateSessionNotification{
		SessionID: "sess_plan",
		Update: SessionUpdate{Value: &SessionUpdatePlanUpdate{PlanUpdate{
			Plan: PlanUpdateContent{Value: &PlanUpdateContentFile{PlanFile{PlanID: "p2", URI: "file:///home/user/project/PLAN.md"}}},
		}}},
	}
	jsontest.AssertSame(t, jsontest.Marshal(t, n), []byte(planOpsFileInput))

	r := UpdateSessionNotification{
		SessionID: "sess_plan",
		Update:    SessionUpdate{Value: &SessionUpdatePlanRemoved{PlanRemoved{PlanID: "p1", Meta: json.RawMessage(`{"why":"done"}`)}}},
	}
	jsontest.AssertSame(t, jsontest.Marshal(t, r), []byte(planOpsRemovedInput))
}
