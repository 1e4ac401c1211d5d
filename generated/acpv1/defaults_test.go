package acpv1_test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// TestDefaultObjectFilled: the members whose schema default is an object
// hold empty values in what the constructors return, nested ones included,
// and are left out while empty, as peers that never set them write them.
func TestDefaultObjectFilled(t *testing.T) {
	r := acpv1.NewInitializeResponse(1)
	r.AgentCapabilities.PromptCapabilities.Image = acpv1.Ptr(true)
	got, err := r.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"protocolVersion":1,"agentCapabilities":{"promptCapabilities":{"image":true}}}`; string(got) != want {
		t.Errorf("%s, want %s", got, want)
	}
	q := acpv1.NewInitializeRequest(1)
	q.ClientCapabilities.Fs.ReadTextFile = acpv1.Ptr(true)
	got, err = q.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true}}}`; string(got) != want {
		t.Errorf("%s, want %s", got, want)
	}
	if got, _ := acpv1.NewInitializeRequest(1).MarshalJSON(); string(got) != `{"protocolVersion":1}` {
		t.Errorf("empty defaults: %s", got)
	}
}
