package acpinspect

import (
	"encoding/json"
	"errors"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// v1 is protocol version 1, decoded with acpv1.
type v1 struct{}

func (v1) version() int { return 1 }

func (v1) decode(data []byte, method string) decoded {
	m, err := acpv1.DecodeMessage(data, method)
	if err != nil {
		d := decoded{err: err, path: errorPath(err), code: -32700}
		var me *acpv1.MessageError
		if errors.As(err, &me) {
			d.code = int(me.Code)
		}
		return d
	}
	p := m.Params
	if m.IsResponse() {
		p = m.Result
	}
	if m.Error != nil {
		p = m.Error
	}
	return decoded{payload: p, goType: goTypeName(p)}
}

func (v1) decodeParams(params []byte, method string, request bool) (decoded, bool) {
	if request {
		return decodeTyped(params, acpv1.NewRequestParams(method))
	}
	return decodeTyped(params, acpv1.NewNotificationParams(method))
}

func (v1) newSession(id string) sessionState {
	return &v1Session{s: acpv1.NewSessionState(acpv1.SessionID(id))}
}

type v1Session struct{ s *acpv1.SessionState }

func (v *v1Session) apply(params any) bool {
	n, ok := params.(*acpv1.SessionNotification)
	if ok {
		v.s.ApplyOwned(n.Update)
	}
	return ok
}

func (v *v1Session) toolCall(id string) (title, status string, ok bool) {
	title, st, ok := v.s.ToolCallTitleStatus(acpv1.ToolCallID(id))
	return title, string(st), ok
}

func (v *v1Session) view() stateView {
	snap := v.s.Snapshot()
	sv := stateView{}
	for _, p := range snap.Plans {
		pv := PlanView{ID: p.ID, Kind: string(p.Kind), Content: p.Content, URI: p.URI}
		for _, e := range p.Entries {
			pv.Entries = append(pv.Entries, EntryView{e.Content, string(e.Priority), string(e.Status)})
		}
		sv.Plans = append(sv.Plans, pv)
	}
	if snap.CurrentMode != nil {
		sv.Mode = string(*snap.CurrentMode)
	}
	if snap.Title != nil {
		sv.Title = *snap.Title
	}
	if snap.Usage != nil {
		sv.Usage, _ = json.Marshal(snap.Usage)
	}
	return sv
}
