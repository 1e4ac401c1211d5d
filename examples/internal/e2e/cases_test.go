package e2e

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// turn is one prompt of the TypeScript clients' cases, as they print it.
type turn struct {
	Accepted   bool              `json:"accepted"` // printed by the v2 client only
	StopReason string            `json:"stopReason"`
	Chunks     []string          `json:"chunks"`
	Plans      []json.RawMessage `json:"plans"`
}

// failure is an error answer, as the TypeScript clients print it.
type failure struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// echoTurns are the prompts of the echo cases every TypeScript client
// makes (interop/client_cases.mjs and client_v2.mjs).
type echoTurns struct {
	Echo        turn   `json:"echo"`
	Reject      turn   `json:"reject"`
	Cancel      turn   `json:"cancel"`
	AfterErrors turn   `json:"afterErrors"`
	Concurrent  []turn `json:"concurrent"`
}

// check checks each turn's stop reason and chunks, and, where accepted,
// that the client saw each prompt accepted (a v2 prompt is answered at
// once, its turn ending later).
func (e echoTurns) check(t *testing.T, accepted bool) {
	t.Helper()
	one := func(name string, got turn, stop string, chunks ...string) {
		t.Helper()
		if accepted && !got.Accepted || got.StopReason != stop || !slices.Equal(got.Chunks, chunks) {
			t.Errorf("%s: accepted %v, stop %q, chunks %q; want %q, %q", name, got.Accepted, got.StopReason, got.Chunks, stop, chunks)
		}
	}
	one("echo", e.Echo, "end_turn", "hello from TypeScript", "permission: allow")
	one("reject", e.Reject, "end_turn", "reject me", "permission: reject")
	one("cancel", e.Cancel, "cancelled", "cancel me", "permission: cancelled")
	one("after the errors", e.AfterErrors, "end_turn", "still serving", "permission: allow")
	if len(e.Concurrent) != 2 {
		t.Fatalf("concurrent: %+v", e.Concurrent)
	}
	one("first of two", e.Concurrent[0], "end_turn", "first", "permission: allow")
	one("second of two", e.Concurrent[1], "end_turn", "second", "permission: reject")
}

// checkFailures checks the answers to an unknown method and to params
// without their cwd.
func checkFailures(t *testing.T, unknownMethod, invalidParams failure) {
	t.Helper()
	if f := unknownMethod; f.Code != -32601 || !jsonEqual(string(f.Data), `{"method":"session/unknown"}`) {
		t.Errorf("unknown method: %+v", f)
	}
	if f := invalidParams; f.Code != -32602 || !bytes.Contains(f.Data, []byte(`"path":"cwd"`)) {
		t.Errorf("invalid params: %+v %s", f, f.Data)
	}
}
