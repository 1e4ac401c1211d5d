//go:build ignore

package convert

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// MainPlanID is the ID that the single plan of ACP v1 has in ACP v2: a v1
// "plan" session update becomes a v2 "plan_update" of this plan.
const MainPlanID = "main"

// NotRepresentableError reports a value that has no equivalent in the
// protocol version it is being converted to, such as a v2 markdown plan or
// the v2 plan entry status "cancelled" on their way to v1 stable, or a
// session update whose tag the source package does not know.
type NotRepresentableError struct {
	// What names the value, for example `plan content "markdown"`,
	// `session update "plan_removed"` or
	// `plan entry status "cancelled" at entries[2]`.
	What string

	// Version is the protocol version that cannot represent the value:
	// 1 or 2.
	Version int
}

// Error returns a message naming the value and the target version.
func (e *NotRepresentableError) Error() string {
	return "convert: " + e.What + " is not representable in ACP v" + strconv.Itoa(e.Version)
}

// UnsupportedError reports a session update that this package does not
// convert because it is not about plans (for example "agent_message_chunk").
// It says nothing about whether the other protocol version could represent
// the update.
type UnsupportedError struct {
	// Tag is the "sessionUpdate" value of the update.
	Tag string
}

// Error returns a message naming the session update.
func (e *UnsupportedError) Error() string {
	return "convert: session update " + strconv.Quote(e.Tag) + " is not a plan update"
}

// errNoVariant reports a union whose Value is nil or a nil pointer.
var errNoVariant = errors.New("convert: session update has no value")

// errNoContent reports a plan update whose content Value is nil or a nil pointer.
var errNoContent = errors.New("convert: plan update has no content")

// SessionUpdateToV2 converts a plan session update of ACP v1 to ACP v2.
//
// A v1 "plan" becomes a v2 "plan_update" of the "items" plan with ID
// [MainPlanID], keeping the entries and the _meta of the update. With the
// unstable_plan_operations or unstable build tag, v1 "plan_update" and
// "plan_removed" become their v2 counterparts with the same plan ID (see the
// package documentation).
//
// It returns a [*NotRepresentableError] for a session update that package
// acpv1 does not know (*acpv1.SessionUpdateOther), and an [*UnsupportedError]
// for any other session update that is not about plans.
func SessionUpdateToV2(u acpv1.SessionUpdate) (acpv2.SessionUpdate, error) {
	switch v := u.Value.(type) {
	case nil:
		return acpv2.SessionUpdate{}, errNoVariant
	case *acpv1.SessionUpdatePlan:
		if v == nil {
			return acpv2.SessionUpdate{}, errNoVariant
		}
		return acpv2.SessionUpdate{Value: &acpv2.SessionUpdatePlanUpdate{PlanUpdate: PlanToV2(v.Plan)}}, nil
	case *acpv1.SessionUpdateOther:
		if v == nil {
			return acpv2.SessionUpdate{}, errNoVariant
		}
		return acpv2.SessionUpdate{}, &NotRepresentableError{What: sessionUpdateWhat(v.Tag), Version: 2}
	}
	if r, ok, err := planOpsSessionUpdateToV2(u.Value); ok {
		return r, err
	}
	return acpv2.SessionUpdate{}, &UnsupportedError{Tag: u.Tag()}
}

// SessionUpdateToV1 converts a plan session update of ACP v2 to ACP v1.
//
// A v2 "plan_update" whose content is "items" becomes a v1 "plan" with the
// entries and the _meta of the update; the plan ID and the _meta of the
// content are dropped. Every other plan content, and every session update
// that v1 does not have ("plan_removed", unknown ones), gives a
// [*NotRepresentableError], as does an entry whose priority or status v1
// does not define. Other session updates give an [*UnsupportedError].
//
// With the unstable_plan_operations or unstable build tag, a "plan_update"
// becomes a v1 "plan_update" with the same plan ID and content kind, unless
// its content is the "items" plan with ID [MainPlanID], which still becomes a
// v1 "plan"; and a "plan_removed" becomes a v1 "plan_removed".
func SessionUpdateToV1(u acpv2.SessionUpdate) (acpv1.SessionUpdate, error) {
	switch v := u.Value.(type) {
	case nil:
		return acpv1.SessionUpdate{}, errNoVariant
	case *acpv2.SessionUpdatePlanUpdate:
		if v == nil {
			return acpv1.SessionUpdate{}, errNoVariant
		}
		if r, ok, err := planOpsPlanUpdateToV1(v.PlanUpdate); ok {
			return r, err
		}
		p, err := PlanToV1(v.PlanUpdate)
		if err != nil {
			return acpv1.SessionUpdate{}, err
		}
		return acpv1.SessionUpdate{Value: &acpv1.SessionUpdatePlan{Plan: p}}, nil
	case *acpv2.SessionUpdateOther:
		if v == nil {
			return acpv1.SessionUpdate{}, errNoVariant
		}
		return acpv1.SessionUpdate{}, &NotRepresentableError{What: sessionUpdateWhat(v.Tag), Version: 1}
	}
	if r, ok, err := planOpsSessionUpdateToV1(u.Value); ok {
		return r, err
	}
	return acpv1.SessionUpdate{}, &UnsupportedError{Tag: u.Tag()}
}

// PlanToV2 converts the payload of a v1 "plan" session update to the
// payload of the equivalent v2 "plan_update": "items" content with ID
// [MainPlanID] and the same entries, and the same _meta on the update.
func PlanToV2(p acpv1.Plan) acpv2.PlanUpdate {
	return acpv2.PlanUpdate{
		Plan: acpv2.PlanUpdateContent{Value: &acpv2.PlanUpdateContentItems{PlanItems: acpv2.PlanItems{
			PlanID:  MainPlanID,
			Entries: entriesToV2(p.Entries),
		}}},
		Meta: cloneRaw(p.Meta),
	}
}

// PlanToV1 converts the payload of a v2 "plan_update" session update to the
// payload of a v1 "plan", whatever the build tags: this is the conversion
// for v1 peers that do not support plan operations.
//
// The content must be "items"; its plan ID and its _meta are dropped, and
// the _meta of the update is kept. Other contents and entries with a
// priority or status that v1 does not define give a
// [*NotRepresentableError].
func PlanToV1(p acpv2.PlanUpdate) (acpv1.Plan, error) {
	switch c := p.Plan.Value.(type) {
	case nil:
		return acpv1.Plan{}, errNoContent
	case *acpv2.PlanUpdateContentItems:
		if c == nil {
			return acpv1.Plan{}, errNoContent
		}
		entries, err := entriesToV1(c.Entries)
		if err != nil {
			return acpv1.Plan{}, err
		}
		return acpv1.Plan{Entries: entries, Meta: cloneRaw(p.Meta)}, nil
	case *acpv2.PlanUpdateContentOther:
		if c == nil {
			return acpv1.Plan{}, errNoContent
		}
	}
	return acpv1.Plan{}, &NotRepresentableError{What: planContentWhat(p.Plan.Tag()), Version: 1}
}

// EntryToV2 converts a v1 plan entry to v2. Priority and status are copied
// as they are: every v1 value is a v2 value.
func EntryToV2(e acpv1.PlanEntry) acpv2.PlanEntry {
	return acpv2.PlanEntry{
		Content:  e.Content,
		Priority: acpv2.PlanEntryPriority(e.Priority),
		Status:   acpv2.PlanEntryStatus(e.Status),
		Meta:     cloneRaw(e.Meta),
	}
}

// EntryToV1 converts a v2 plan entry to v1. The priority and status must be
// values that v1 defines (IsKnown): v2's enums are open, and a value such as
// the status "cancelled" or a custom "_blocked" gives a
// [*NotRepresentableError].
func EntryToV1(e acpv2.PlanEntry) (acpv1.PlanEntry, error) {
	return entryToV1(e, "")
}

// entryToV1 is EntryToV1 with where, a suffix for error messages that
// locates the entry.
func entryToV1(e acpv2.PlanEntry, where string) (acpv1.PlanEntry, error) {
	priority := acpv1.PlanEntryPriority(e.Priority)
	if !priority.IsKnown() {
		return acpv1.PlanEntry{}, &NotRepresentableError{
			What:    "plan entry priority " + strconv.Quote(string(e.Priority)) + where,
			Version: 1,
		}
	}
	status := acpv1.PlanEntryStatus(e.Status)
	if !status.IsKnown() {
		return acpv1.PlanEntry{}, &NotRepresentableError{
			What:    "plan entry status " + strconv.Quote(string(e.Status)) + where,
			Version: 1,
		}
	}
	return acpv1.PlanEntry{
		Content:  e.Content,
		Priority: priority,
		Status:   status,
		Meta:     cloneRaw(e.Meta),
	}, nil
}

// entriesToV2 converts entries, keeping a nil slice nil.
func entriesToV2(in []acpv1.PlanEntry) []acpv2.PlanEntry {
	if in == nil {
		return nil
	}
	out := make([]acpv2.PlanEntry, len(in))
	for i, e := range in {
		out[i] = EntryToV2(e)
	}
	return out
}

// entriesToV1 converts entries, keeping a nil slice nil; an error names the
// index of the first entry v1 cannot represent.
func entriesToV1(in []acpv2.PlanEntry) ([]acpv1.PlanEntry, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]acpv1.PlanEntry, len(in))
	for i, e := range in {
		var err error
		out[i], err = entryToV1(e, " at entries["+strconv.Itoa(i)+"]")
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// cloneRaw copies raw JSON, keeping nil nil.
func cloneRaw(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	return append(json.RawMessage{}, raw...)
}

// sessionUpdateWhat names a session update for a NotRepresentableError.
func sessionUpdateWhat(tag string) string {
	return "session update " + strconv.Quote(tag)
}

// planContentWhat names a plan content for a NotRepresentableError.
func planContentWhat(tag string) string {
	return "plan content " + strconv.Quote(tag)
}
