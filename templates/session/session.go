//go:build ignore

package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// PlanKind is the type of a plan's content: PlanKindItems, PlanKindMarkdown,
// PlanKindFile, or the type of a plan content this revision of the protocol
// does not know, kept raw.
type PlanKind string

// The plan contents of the plan operations.
const (
	// PlanKindItems is a plan of entries; a v1 "plan" session update is one.
	PlanKindItems PlanKind = "items"
	// PlanKindMarkdown is a plan written in markdown.
	PlanKindMarkdown PlanKind = "markdown"
	// PlanKindFile is a plan kept in a file.
	PlanKindFile PlanKind = "file"
)

// PlanIDMain is the id of the plan that a v1 "plan" session update
// replaces, as the plan operations map it.
const PlanIDMain = "main"

// PlanState is one plan of a session as its last update left it.
type PlanState struct {
	// ID identifies the plan within the session (PlanIDMain for the v1
	// "plan" session update).
	ID string
	// Kind says which of the members below holds the content.
	Kind PlanKind
	// Entries are the entries of an items plan.
	Entries []PlanEntry
	// Content is the markdown text of a markdown plan.
	Content string
	// URI is where the file of a file plan is.
	URI string
	// Raw is the plan content object as received when Kind is a kind this
	// package does not know (or one whose build tag is off).
	Raw json.RawMessage
	// Meta is the _meta of the plan content, when it has one.
	Meta json.RawMessage
}

// ErrPlanNotRepresentable is the error, found with errors.Is, of a plan
// call that the client cannot read in any shape it advertised: a markdown,
// file or unknown plan, or a removal, for a v1 client that did not
// advertise plan operations, or a plan content whose build tag is off.
// Nothing is sent.
var ErrPlanNotRepresentable = errors.New("the plan cannot be represented for this client")

// SessionChange says what one session update (or one result) changed in a
// SessionState, so that a user interface redraws only that.
type SessionChange struct {
	// Plans are the ids of the plans that were replaced, created or
	// removed (a removed plan is no longer in the state).
	Plans []string
	// ToolCalls are the ids of the tool calls that were created or changed.
	ToolCalls []ToolCallID
	// ConfigOptions says whether the config options changed.
	ConfigOptions bool
	// Mode says whether the current mode changed (v1).
	Mode bool
	// Commands says whether the available commands changed.
	Commands bool
	// Info says whether the session's title or update time changed.
	Info bool
	// Usage says whether the usage changed.
	Usage bool
	// State says whether the session's state and background work changed
	// (v2).
	State bool
}

// IsZero reports whether nothing changed: an update the state does not
// track.
func (c SessionChange) IsZero() bool {
	return len(c.Plans) == 0 && len(c.ToolCalls) == 0 &&
		!c.ConfigOptions && !c.Mode && !c.Commands && !c.Info && !c.Usage && !c.State
}

// orderedMap keeps values by key in the order the keys were first seen.
// P is a pointer to the values' type, so that every use shares one
// instantiation: a value is changed where it is kept, and copied on its
// way out.
type orderedMap[K comparable, P any] struct {
	keys   []K
	values map[K]P
}

func (o *orderedMap[K, P]) get(k K) (P, bool) {
	p, ok := o.values[k]
	return p, ok
}

func (o *orderedMap[K, P]) put(k K, p P) {
	if o.values == nil {
		o.values = map[K]P{}
	}
	if _, ok := o.values[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.values[k] = p
}

// remove removes k and reports whether it was there.
func (o *orderedMap[K, P]) remove(k K) bool {
	if _, ok := o.values[k]; !ok {
		return false
	}
	delete(o.values, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
	return true
}

// planList returns copies of the plans of m in first-seen order.
func planList(m *orderedMap[string, *PlanState]) []PlanState {
	out := make([]PlanState, 0, len(m.keys))
	for _, k := range m.keys {
		out = append(out, copyPlan(*m.values[k]))
	}
	return out
}

// Plan returns a copy of the plan id, and whether the session has it.
func (s *SessionState) Plan(id string) (PlanState, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var p PlanState
	kept, ok := s.plans.get(id)
	if ok {
		p = *kept
	}
	return copyPlan(p), ok
}

// planFromItems is the state of an items plan.
func planFromItems(id string, entries []PlanEntry, meta json.RawMessage) PlanState {
	return PlanState{ID: id, Kind: PlanKindItems, Entries: *deepCopy(&entries), Meta: copyRaw(meta)}
}

// copyPlan returns a copy of p that shares no memory with it.
func copyPlan(p PlanState) PlanState {
	p.Entries = *deepCopy(&p.Entries)
	p.Raw = copyRaw(p.Raw)
	p.Meta = copyRaw(p.Meta)
	return p
}

// copyRaw returns a copy of free-form JSON, nil staying nil.
func copyRaw(b json.RawMessage) json.RawMessage {
	if b == nil {
		return nil
	}
	return append(json.RawMessage(nil), b...)
}

// patchMeta applies a _meta patch to the stored metadata by top-level key:
// keys the patch omits are kept, a key set to null is removed, any other
// value replaces the key's value without merging nested objects. Stored
// keys keep their order and new keys follow. A stored value that is not
// an object is replaced by the patch.
func patchMeta(stored, patch json.RawMessage) json.RawMessage {
	old, okOld := jsonObjectMembers(stored)
	add, okAdd := jsonObjectMembers(patch)
	if !okAdd {
		return copyRaw(patch)
	}
	if !okOld {
		old = nil
	}
	var keys []string
	values := map[string]jsontext.Value{}
	for _, m := range append(old, add...) {
		if _, seen := values[m.name]; !seen {
			keys = append(keys, m.name)
		}
		values[m.name] = m.value
	}
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	for _, k := range keys {
		v := values[k]
		if v.Kind() == 'n' {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		name, _ := jsontext.AppendQuote(nil, k)
		b.Write(name)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return json.RawMessage(b.Bytes())
}

// rawPlanID returns the planId member of a plan content kept raw.
func rawPlanID(raw json.RawMessage) string {
	members, _ := jsonObjectMembers(raw)
	for _, m := range members {
		if m.name == "planId" {
			var id string
			if json.Unmarshal(m.value, &id) == nil {
				return id
			}
		}
	}
	return ""
}

type metaMember struct {
	name  string
	value jsontext.Value
}

// jsonObjectMembers returns the members of a JSON object in order; ok is false
// when b is not an object.
func jsonObjectMembers(b json.RawMessage) (members []metaMember, ok bool) {
	if len(b) == 0 {
		return nil, false
	}
	d := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true))
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, false
	}
	for d.PeekKind() != '}' {
		tok, err := d.ReadToken()
		if err != nil {
			return nil, false
		}
		name := tok.String() // before the next read, which reuses the token's bytes
		value, err := d.ReadValue()
		if err != nil {
			return nil, false
		}
		members = append(members, metaMember{name, value.Clone()})
	}
	return members, true
}

// sessionQueue holds the updates of one session until they are read, in
// arrival order. Adding never blocks: the connection handles notifications
// one at a time and must not wait for a reader.
type sessionQueue struct {
	mu     sync.Mutex
	items  []SessionEvent
	ready  chan struct{} // closed and replaced when an item is added
	closed bool
}

func newSessionQueue() *sessionQueue {
	return &sessionQueue{ready: make(chan struct{})}
}

func (q *sessionQueue) push(v SessionEvent) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	q.items = append(q.items, v)
	close(q.ready)
	q.ready = make(chan struct{})
}

// next returns the oldest item, waiting for one until ctx ends; once the
// queue is closed, or closed or connDone is, and it is empty, it returns
// errClosed.
func (q *sessionQueue) next(ctx context.Context, closed, connDone <-chan struct{}, errClosed error) (SessionEvent, error) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			v := q.items[0]
			q.items[0] = SessionEvent{}
			q.items = q.items[1:]
			q.mu.Unlock()
			return v, nil
		}
		ended, ready := q.closed, q.ready
		q.mu.Unlock()
		if ended {
			return SessionEvent{}, errClosed
		}
		select {
		case <-ready:
		case <-closed:
			q.close()
		case <-connDone:
			q.close()
		case <-ctx.Done():
			return SessionEvent{}, ctx.Err()
		}
	}
}

func (q *sessionQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
}

// ErrSessionClosed is the error of reading the updates of a session that
// was closed, or whose connection ended, once the updates received before
// are read.
var ErrSessionClosed = errors.New("the session no longer receives updates")

// withCause returns err, ErrSessionClosed, wrapped with cause, why the
// connection ended, when there is one; any other err as it is.
func withCause(err, cause error) error {
	if err != ErrSessionClosed || cause == nil {
		return err
	}
	return fmt.Errorf("%w: %w", err, cause)
}

// maxPendingUpdates bounds the updates a SessionRouter keeps for sessions
// it does not route yet (those that arrive before the result of
// session/new); beyond it the oldest are dropped.
const maxPendingUpdates = 1024
