package ir

import (
	"sort"
	"strings"

	"github.com/acpgen/acpgen/gen/diag"
	"github.com/acpgen/acpgen/gen/load"
)

// methods collects the JSON-RPC methods from the x-method annotations: a
// definition named …Request or …Notification holds params, …Response a result.
func (b *builder) methods() ([]*Method, error) {
	type key struct {
		name string
		kind MethodKind
	}
	byKey := map[key]*Method{}
	results := map[string]*Type{}
	for _, d := range b.f.Defs {
		a := load.Annotate(d.Schema)
		if a.Method == "" {
			continue
		}
		t := b.defs[d.Name]
		switch {
		case strings.HasSuffix(d.Name, "Response"):
			if results[a.Method] != nil {
				return nil, errorf(d.Schema, "a second result type for method %q", a.Method)
			}
			results[a.Method] = t
		case strings.HasSuffix(d.Name, "Request"), strings.HasSuffix(d.Name, "Notification"):
			k := key{a.Method, Request}
			if strings.HasSuffix(d.Name, "Notification") {
				k.kind = Notification
			}
			if byKey[k] != nil {
				return nil, errorf(d.Schema, "a second params type for method %q", a.Method)
			}
			byKey[k] = &Method{Name: a.Method, Kind: k.kind, Side: a.Side, Params: t}
		default:
			return nil, errorf(d.Schema, "x-method on %s, which is not named …Request, …Response or …Notification", d.Name)
		}
	}
	var out []*Method
	for k, m := range byKey {
		if k.kind == Request {
			m.Result = results[m.Name]
			if m.Result == nil {
				return nil, errorf(b.f.Def(m.Params.Name), "request %q has no result type (a …Response definition with x-method %q)", m.Name, m.Name)
			}
			delete(results, m.Name)
		}
		out = append(out, m)
	}
	var errs []error
	for name, t := range results {
		if byKey[key{name, Request}] == nil {
			errs = append(errs, errorf(b.f.Def(t.Name), "result type for %q, which has no request", name))
		}
	}
	if err := diag.Join(errs...); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Kind < out[j].Kind
	})
	return out, nil
}
