package acpinspect

import (
	"encoding/json"
	"errors"

	"github.com/acpgen/acpgen/generated/acpv2"
)

// v2 is protocol version 2, decoded with acpv2.
type v2 struct{}

func (v2) version() int { return 2 }

func (v2) decode(data []byte, method string) decoded {
	m, err := acpv2.DecodeMessage(data, method)
	if err != nil {
		d := decoded{err: err, path: errorPath(err), code: -32700}
		var me *acpv2.MessageError
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

func (v2) decodeParams(params []byte, method string, request bool) (decoded, bool) {
	if request {
		return decodeTyped(params, acpv2.NewRequestParams(method))
	}
	return decodeTyped(params, acpv2.NewNotificationParams(method))
}

func (v2) newSession(id string) sessionState {
	return &v2Session{s: acpv2.NewSessionState(acpv2.SessionID(id))}
}

type v2Session struct{ s *acpv2.SessionState }

func (v *v2Session) apply(params any) bool {
	n, ok := params.(*acpv2.UpdateSessionNotification)
	if ok {
		v.s.ApplyOwned(n.Update)
	}
	return ok
}

func (v *v2Session) toolCall(id string) (title, status string, ok bool) {
	title, st, ok := v.s.ToolCallTitleStatus(acpv2.ToolCallID(id))
	return title, string(st), ok
}

func (v *v2Session) view() stateView {
	snap := v.s.Snapshot()
	sv := stateView{}
	for _, p := range snap.Plans {
		pv := PlanView{ID: p.ID, Kind: string(p.Kind), Content: p.Content, URI: p.URI}
		for _, e := range p.Entries {
			pv.Entries = append(pv.Entries, EntryView{e.Content, string(e.Priority), string(e.Status)})
		}
		sv.Plans = append(sv.Plans, pv)
	}
	if snap.State != nil {
		sv.State, _ = json.Marshal(snap.State)
	}
	if snap.Title != nil {
		sv.Title = *snap.Title
	}
	if snap.Usage != nil {
		sv.Usage, _ = json.Marshal(snap.Usage)
	}
	return sv
}
