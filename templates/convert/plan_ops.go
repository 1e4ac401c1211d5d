//go:build ignore

package convert

import (
	"encoding/json"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// planOpsSessionUpdateToV2 converts the v1 session updates of plan
// operations, "plan_update" and "plan_removed"; ok is false for any other.
func planOpsSessionUpdateToV2(u acpv1.SessionUpdateVariant) (r acpv2.SessionUpdate, ok bool, err error) {
	switch v := u.(type) {
	case *acpv1.SessionUpdatePlanUpdate:
		if v == nil {
			return acpv2.SessionUpdate{}, true, errNoVariant
		}
		p, err := planUpdateToV2(v.PlanUpdate)
		if err != nil {
			return acpv2.SessionUpdate{}, true, err
		}
		return acpv2.SessionUpdate{Value: &acpv2.SessionUpdatePlanUpdate{PlanUpdate: p}}, true, nil
	case *acpv1.SessionUpdatePlanRemoved:
		if v == nil {
			return acpv2.SessionUpdate{}, true, errNoVariant
		}
		return acpv2.SessionUpdate{Value: &acpv2.SessionUpdatePlanRemoved{PlanRemoved: acpv2.PlanRemoved{
			PlanID: acpv2.PlanID(v.PlanID),
			Meta:   cloneRaw(v.Meta),
		}}}, true, nil
	}
	return acpv2.SessionUpdate{}, false, nil
}

// planOpsSessionUpdateToV1 converts the v2 session updates of plan
// operations that are not "plan_update": "plan_removed"; ok is false for
// any other.
func planOpsSessionUpdateToV1(u acpv2.SessionUpdateVariant) (r acpv1.SessionUpdate, ok bool, err error) {
	if v, isRemoved := u.(*acpv2.SessionUpdatePlanRemoved); isRemoved {
		if v == nil {
			return acpv1.SessionUpdate{}, true, errNoVariant
		}
		return acpv1.SessionUpdate{Value: &acpv1.SessionUpdatePlanRemoved{PlanRemoved: acpv1.PlanRemoved{
			PlanID: acpv1.PlanID(v.PlanID),
			Meta:   cloneRaw(v.Meta),
		}}}, true, nil
	}
	return acpv1.SessionUpdate{}, false, nil
}

// planOpsPlanUpdateToV1 converts a v2 "plan_update" to a v1 "plan_update";
// ok is false, leaving it to the stable conversion to a v1 "plan", when the
// content is missing or is the "items" plan with ID MainPlanID.
func planOpsPlanUpdateToV1(p acpv2.PlanUpdate) (r acpv1.SessionUpdate, ok bool, err error) {
	switch c := p.Plan.Value.(type) {
	case nil:
		return acpv1.SessionUpdate{}, false, nil
	case *acpv2.PlanUpdateContentItems:
		if c == nil || c.PlanID == MainPlanID {
			return acpv1.SessionUpdate{}, false, nil
		}
	}
	v1, err := planUpdateToV1(p)
	if err != nil {
		return acpv1.SessionUpdate{}, true, err
	}
	return acpv1.SessionUpdate{Value: &acpv1.SessionUpdatePlanUpdate{PlanUpdate: v1}}, true, nil
}

// planUpdateToV2 converts the payload of a v1 "plan_update", content kind
// for content kind.
func planUpdateToV2(p acpv1.PlanUpdate) (acpv2.PlanUpdate, error) {
	var content acpv2.PlanUpdateContentVariant
	switch c := p.Plan.Value.(type) {
	case nil:
		return acpv2.PlanUpdate{}, errNoContent
	case *acpv1.PlanUpdateContentItems:
		if c == nil {
			return acpv2.PlanUpdate{}, errNoContent
		}
		content = &acpv2.PlanUpdateContentItems{PlanItems: acpv2.PlanItems{
			PlanID:  acpv2.PlanID(c.PlanID),
			Entries: entriesToV2(c.Entries),
			Meta:    cloneRaw(c.Meta),
		}}
	case *acpv1.PlanUpdateContentFile:
		if c == nil {
			return acpv2.PlanUpdate{}, errNoContent
		}
		content = &acpv2.PlanUpdateContentFile{PlanFile: acpv2.PlanFile{
			PlanID: acpv2.PlanID(c.PlanID),
			URI:    c.URI,
			Meta:   cloneRaw(c.Meta),
		}}
	case *acpv1.PlanUpdateContentMarkdown:
		if c == nil {
			return acpv2.PlanUpdate{}, errNoContent
		}
		content = &acpv2.PlanUpdateContentMarkdown{PlanMarkdown: acpv2.PlanMarkdown{
			PlanID:  acpv2.PlanID(c.PlanID),
			Content: c.Content,
			Meta:    cloneRaw(c.Meta),
		}}
	case *acpv1.PlanUpdateContentOther:
		if c == nil {
			return acpv2.PlanUpdate{}, errNoContent
		}
		// acpv1's fallback has no PlanID field (the v1 schema has no
		// fallback content at all), while v2 requires "planId": take it
		// from the raw object.
		id, ok := rawPlanID(c.Raw)
		if !ok {
			return acpv2.PlanUpdate{}, &NotRepresentableError{
				What:    planContentWhat(c.Tag) + ` without a string "planId"`,
				Version: 2,
			}
		}
		content = &acpv2.PlanUpdateContentOther{Tag: c.Tag, PlanID: acpv2.PlanID(id), Raw: cloneRaw(c.Raw)}
	default:
		return acpv2.PlanUpdate{}, &NotRepresentableError{What: planContentWhat(p.Plan.Tag()), Version: 2}
	}
	return acpv2.PlanUpdate{Plan: acpv2.PlanUpdateContent{Value: content}, Meta: cloneRaw(p.Meta)}, nil
}

// planUpdateToV1 converts the payload of a v2 "plan_update", content kind
// for content kind.
func planUpdateToV1(p acpv2.PlanUpdate) (acpv1.PlanUpdate, error) {
	var content acpv1.PlanUpdateContentVariant
	switch c := p.Plan.Value.(type) {
	case nil:
		return acpv1.PlanUpdate{}, errNoContent
	case *acpv2.PlanUpdateContentItems:
		if c == nil {
			return acpv1.PlanUpdate{}, errNoContent
		}
		entries, err := entriesToV1(c.Entries)
		if err != nil {
			return acpv1.PlanUpdate{}, err
		}
		content = &acpv1.PlanUpdateContentItems{PlanItems: acpv1.PlanItems{
			PlanID:  acpv1.PlanID(c.PlanID),
			Entries: entries,
			Meta:    cloneRaw(c.Meta),
		}}
	case *acpv2.PlanUpdateContentFile:
		if c == nil {
			return acpv1.PlanUpdate{}, errNoContent
		}
		content = &acpv1.PlanUpdateContentFile{PlanFile: acpv1.PlanFile{
			PlanID: acpv1.PlanID(c.PlanID),
			URI:    c.URI,
			Meta:   cloneRaw(c.Meta),
		}}
	case *acpv2.PlanUpdateContentMarkdown:
		if c == nil {
			return acpv1.PlanUpdate{}, errNoContent
		}
		content = &acpv1.PlanUpdateContentMarkdown{PlanMarkdown: acpv1.PlanMarkdown{
			PlanID:  acpv1.PlanID(c.PlanID),
			Content: c.Content,
			Meta:    cloneRaw(c.Meta),
		}}
	case *acpv2.PlanUpdateContentOther:
		if c == nil {
			return acpv1.PlanUpdate{}, errNoContent
		}
		// acpv1's fallback keeps only Tag and Raw, so the plan ID must
		// travel in Raw: write the v2 object when it has none.
		raw := cloneRaw(c.Raw)
		if raw == nil {
			var err error
			if raw, err = json.Marshal(c); err != nil {
				return acpv1.PlanUpdate{}, err
			}
		}
		content = &acpv1.PlanUpdateContentOther{Tag: c.Tag, Raw: raw}
	default:
		return acpv1.PlanUpdate{}, &NotRepresentableError{What: planContentWhat(p.Plan.Tag()), Version: 1}
	}
	return acpv1.PlanUpdate{Plan: acpv1.PlanUpdateContent{Value: content}, Meta: cloneRaw(p.Meta)}, nil
}

// rawPlanID returns the string "planId" member of a raw JSON object.
func rawPlanID(raw json.RawMessage) (string, bool) {
	var probe struct {
		PlanID *string `json:"planId"`
	}
	if raw == nil || json.Unmarshal(raw, &probe) != nil || probe.PlanID == nil {
		return "", false
	}
	return *probe.PlanID, true
}
