package sessiontest

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/acpgen/acpgen/internal/jsontest"
)

// State drives the session state of a generated package (its
// *SessionState) through reflection, so that a test written once runs on
// the state of either version.
type State struct {
	defs jsontest.Definitions
	v    reflect.Value
}

// NewState wraps state, a *SessionState of the package whose definitions
// table is defs.
func NewState(defs jsontest.Definitions, state any) *State {
	return &State{defs: defs, v: reflect.ValueOf(state)}
}

// Update decodes update, a SessionUpdate.
func (s *State) Update(t testing.TB, update string) reflect.Value {
	t.Helper()
	u := s.defs["SessionUpdate"]()
	if err := json.Unmarshal([]byte(update), u); err != nil {
		t.Fatalf("%s: %v", update, err)
	}
	return reflect.ValueOf(u).Elem()
}

// Apply decodes update and applies it, and returns the change written out
// (see Describe).
func (s *State) Apply(t testing.TB, update string) string {
	t.Helper()
	return s.apply(s.Update(t, update))
}

// apply applies a decoded SessionUpdate.
func (s *State) apply(u reflect.Value) string {
	return Describe(s.v.MethodByName("Apply").Call([]reflect.Value{u})[0].Interface())
}

// Snapshot returns the state's snapshot.
func (s *State) Snapshot() any {
	return s.v.MethodByName("Snapshot").Call(nil)[0].Interface()
}

// ToolCall returns the state of the tool call id, or nil.
func (s *State) ToolCall(id string) any {
	m := s.v.MethodByName("ToolCall")
	out := m.Call([]reflect.Value{reflect.ValueOf(id).Convert(m.Type().In(0))})
	if !out[1].Bool() {
		return nil
	}
	return out[0].Interface()
}

// Corpus replays the corpus's stable pages of version (see Replay) into
// session states made by newState, decoding the session/update params as
// the definition params, and compares the result with the golden file.
func Corpus(t *testing.T, version string, defs jsontest.Definitions, params string, newState func(id string) any, golden string, update bool) {
	states := map[string]*State{}
	state := func(id string) *State {
		if states[id] == nil {
			states[id] = NewState(defs, newState(id))
		}
		return states[id]
	}
	got := Replay(t, Adapter{
		Version: version,
		Reset:   func() { states = map[string]*State{} },
		Apply: func(data []byte) (string, string, error) {
			n := defs[params]()
			if err := json.Unmarshal(data, n); err != nil {
				return "", "", err
			}
			id := reflect.ValueOf(n).Elem().FieldByName("SessionID").String()
			return id, state(id).apply(reflect.ValueOf(n).Elem().FieldByName("Update")), nil
		},
		SetConfigOptions: func(session string, result []byte) (string, error) {
			r := defs["SetSessionConfigOptionResponse"]()
			if err := json.Unmarshal(result, r); err != nil {
				return "", err
			}
			options := reflect.ValueOf(r).Elem().FieldByName("ConfigOptions")
			return Describe(state(session).v.MethodByName("SetConfigOptions").Call([]reflect.Value{options})[0].Interface()), nil
		},
		Snapshot: func(session string) any { return state(session).Snapshot() },
	}, false)
	Golden(t, golden, got, update)
}

// RunSteps applies each step's update (its first string) to s and checks
// the change, written out (its second).
func RunSteps(t *testing.T, s *State, steps [][2]string) {
	t.Helper()
	for _, step := range steps {
		if got := s.Apply(t, step[0]); got != step[1] {
			t.Errorf("%s: change = %s, want %s", step[0], got, step[1])
		}
	}
}

// PatchValues are values of the members of a tool call update that every
// version has, as JSON.
var PatchValues = map[string]string{
	"kind": `"edit"`, "status": `"failed"`, "title": `"T"`, "name": `"n"`,
	"content":   `[{"type":"content","content":{"type":"text","text":"x"}}]`,
	"locations": `[{"path":"/p"}]`, "rawInput": `{"i":1}`, "rawOutput": `{"o":1}`, "_meta": `{"m":1}`,
}

// PatchCoversEveryMember sets each member of a tool call update alone, with
// its value from PatchValues or extra, on a tool call that create made in a
// new state, and checks that the patch carries it into the tool call. Every
// member of ToolCallUpdate but toolCallId must have a value.
func PatchCoversEveryMember(t *testing.T, defs jsontest.Definitions, newState func() any, create string, extra map[string]string) {
	values := maps.Clone(PatchValues)
	maps.Copy(values, extra)
	typ := reflect.TypeOf(defs["ToolCallUpdate"]()).Elem()
	for i := 0; i < typ.NumField(); i++ {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name == "toolCallId" || !typ.Field(i).IsExported() {
			continue
		}
		value, ok := values[name]
		if !ok {
			t.Errorf("ToolCallUpdate.%s (%s): no test value; add it and its patch", typ.Field(i).Name, name)
			continue
		}
		s := NewState(defs, newState())
		s.Apply(t, create)
		before := s.ToolCall("t")
		s.Apply(t, fmt.Sprintf(`{"sessionUpdate":"tool_call_update","toolCallId":"t",%q:%s}`, name, value))
		if after := s.ToolCall("t"); reflect.DeepEqual(before, after) {
			t.Errorf("%s: the patch left the tool call as it was", name)
		}
	}
}

// Concurrent applies 200 updates that each make a tool call (update
// returns that of goroutine i's j-th) from 4 goroutines, taking snapshots
// between them, and checks that the state holds the 200 calls.
func Concurrent(t *testing.T, s *State, update func(i, j int) string) {
	updates := make([][]reflect.Value, 4)
	for i := range updates {
		for j := 0; j < 50; j++ {
			updates[i] = append(updates[i], s.Update(t, update(i, j)))
		}
	}
	var wg sync.WaitGroup
	for _, us := range updates {
		wg.Add(1)
		go func(us []reflect.Value) {
			defer wg.Done()
			for _, u := range us {
				s.apply(u)
				_ = s.Snapshot()
			}
		}(us)
	}
	wg.Wait()
	if n := reflect.Indirect(reflect.ValueOf(s.Snapshot())).FieldByName("ToolCalls").Len(); n != 200 {
		t.Errorf("%d tool calls, want 200", n)
	}
}
