package acpclient

import (
	"context"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// Middleware returns the connection middleware that tells the Host of the
// sessions the client opens: on the success of its session/new,
// session/load or session/resume call, the session is opened with the
// call's cwd (see Open); on the success of session/close or session/delete,
// it is forgotten (see Forget). A cwd the Host cannot open (not a
// directory) leaves the session unknown, and its files and terminals are
// refused; the call's own result is unchanged. Middleware is the same type
// in every generated version; the Host serves v1's requests.
func (h *Host) Middleware() acpv1.Middleware {
	return func(next acpv1.Handler) acpv1.Handler {
		return func(ctx context.Context, call acpv1.Call) (any, error) {
			res, err := next(ctx, call)
			if err != nil || call.Inbound() {
				return res, err
			}
			switch p := call.Params().(type) {
			case *acpv1.NewSessionRequest:
				if r, ok := res.(*acpv1.NewSessionResponse); ok {
					h.Open(string(r.SessionID), p.Cwd)
				}
			case *acpv1.LoadSessionRequest:
				h.Open(string(p.SessionID), p.Cwd)
			case *acpv1.ResumeSessionRequest:
				h.Open(string(p.SessionID), p.Cwd)
			case *acpv1.CloseSessionRequest:
				h.Forget(string(p.SessionID))
			case *acpv1.DeleteSessionRequest:
				h.Forget(string(p.SessionID))
			}
			return res, err
		}
	}
}
