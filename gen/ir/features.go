package ir

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// FeatureMap names the unstable feature of schema items: feature name →
// items. Only roots need naming; the rest inherit (see AssignFeatures).
// Under the umbrella name ("unstable") it lists the unstable items that
// upstream gates by no feature yet: they stay behind the umbrella tag alone,
// and are known, so no warning is given about them.
type FeatureMap map[string]FeatureItems

// FeatureItems are the items one feature gates. Variants are written
// "Union.tag", fields "Type.jsonName", methods by their JSON-RPC name.
type FeatureItems struct {
	Types    []string `json:"types"`
	Variants []string `json:"variants"`
	Fields   []string `json:"fields"`
	Methods  []string `json:"methods"`
}

// AssignFeatures sets the Features of every unstable item of p. Items the
// map names get their features; a type that an item references gets that
// item's features too, so that whatever enables the item also compiles the
// type; a field, variant or method the map does not name inherits the
// features of the named types it refers to. It returns warnings: map entries that
// name stable or missing items, and unstable items left to the umbrella tag
// that the map does not list under it.
func AssignFeatures(p *Package, fm FeatureMap) []string {
	a := &assigner{explicit: map[*Gate]bool{}, umbrella: map[*Gate]bool{}}
	types := map[string]*Type{}
	for _, t := range p.Types {
		types[t.Name] = t
	}
	var r mapReport
	for _, feature := range slices.Sorted(maps.Keys(fm)) {
		a.apply(p, types, feature, fm[feature], &r)
	}
	a.spread(p)
	return append(r.warnings(), a.umbrellaOnly(p)...)
}

// apply sets the gates of the items that the map names under feature, and
// reports the entries that name stable or missing items.
func (a *assigner) apply(p *Package, types map[string]*Type, feature string, items FeatureItems, r *mapReport) {
	set := func(g *Gate) { a.set(g, feature) }
	if feature == Umbrella {
		set = func(g *Gate) { a.umbrella[g] = true }
	}
	note := func(item, why string) { r.add(feature, item, why) }
	for _, n := range items.Types {
		if t := types[n]; t == nil {
			note("type "+n, "the schema does not have")
		} else if !t.Unstable {
			note("type "+n, "that are stable")
		} else {
			set(&t.Gate)
		}
	}
	for _, n := range items.Variants {
		owner, tag, _ := strings.Cut(n, ".")
		v := findVariant(types[owner], tag)
		switch {
		case v == nil:
			note("variant "+n, "the schema does not have")
		case !v.Unstable && !types[owner].Unstable:
			note("variant "+n, "that are stable")
		default:
			set(&v.Gate)
		}
	}
	for _, n := range items.Fields {
		owner, field, _ := strings.Cut(n, ".")
		f := findField(types[owner], field)
		switch {
		case f == nil:
			note("field "+n, "the schema does not have")
		case !f.Unstable && !types[owner].Unstable:
			note("field "+n, "that are stable")
		default:
			set(&f.Gate)
		}
	}
	applyMethods(p, items.Methods, set, note)
}

// applyMethods sets the gates of the methods named, by JSON-RPC name.
func applyMethods(p *Package, methods []string, set func(*Gate), note func(item, why string)) {
	for _, n := range methods {
		found := false
		for _, m := range p.Methods {
			if m.Name != n {
				continue
			}
			found = true
			if m.Unstable {
				set(&m.Gate)
			} else {
				note("method "+n, "that are stable")
			}
		}
		if !found {
			note("method "+n, "the schema does not have")
		}
	}
}

// spread gives every item the features of the items it refers to and of
// those that refer to it, until nothing changes.
func (a *assigner) spread(p *Package) {
	for a.changed = true; a.changed; {
		a.changed = false
		for _, t := range p.Types {
			a.propagate(t)
		}
		for _, m := range p.Methods {
			if m.Unstable {
				a.inherit(&m.Gate, m.Params, m.Result)
				a.pass(m.Gate, m.Params, m.Result)
			}
		}
	}
}

// umbrellaOnly warns of the unstable items that belong to no feature and
// that the map does not list under the umbrella name.
func (a *assigner) umbrellaOnly(p *Package) []string {
	var umbrella []string
	for _, t := range p.Types {
		forEachGate(t, func(what string, g *Gate) {
			if g.Unstable && len(g.Features) == 0 && !a.umbrella[g] {
				umbrella = append(umbrella, what)
			}
		})
	}
	for _, m := range p.Methods {
		if m.Unstable && len(m.Features) == 0 && !a.umbrella[&m.Gate] {
			umbrella = append(umbrella, "method "+m.Name)
		}
	}
	if len(umbrella) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%d unstable item(s) belong to no known feature; only the %q build tag enables them: %s",
		len(umbrella), Umbrella, brief(umbrella))}
}

// brief names the first few of items and counts the rest, so that a
// warning stays one short line.
func brief(items []string) string {
	const shown = 3
	if len(items) <= shown {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:shown], ", "), len(items)-shown)
}

// mapReport groups the feature map's entries that name stable or missing
// items, by feature and reason, in the order they are found.
type mapReport struct {
	grouped map[mapGroup][]string
	order   []mapGroup
}

type mapGroup struct{ feature, why string }

func (r *mapReport) add(feature, item, why string) {
	g := mapGroup{feature, why}
	if r.grouped == nil {
		r.grouped = map[mapGroup][]string{}
	}
	if r.grouped[g] == nil {
		r.order = append(r.order, g)
	}
	r.grouped[g] = append(r.grouped[g], item)
}

// warnings returns one warning per group.
func (r *mapReport) warnings() []string {
	var out []string
	for _, g := range r.order {
		out = append(out, fmt.Sprintf("feature map: %s names %d item(s) %s: %s",
			g.feature, len(r.grouped[g]), g.why, brief(r.grouped[g])))
	}
	return out
}

type assigner struct {
	explicit map[*Gate]bool // gates the map names under a feature
	umbrella map[*Gate]bool // gates the map lists as umbrella-only
	changed  bool
}

func (a *assigner) set(g *Gate, feature string) {
	a.explicit[g] = true
	a.add(g, []string{feature})
}

func (a *assigner) add(g *Gate, features []string) {
	for _, f := range features {
		i := sort.SearchStrings(g.Features, f)
		if i < len(g.Features) && g.Features[i] == f {
			continue
		}
		g.Features = append(g.Features, "")
		copy(g.Features[i+1:], g.Features[i:])
		g.Features[i] = f
		a.changed = true
	}
}

// inherit gives an item the map does not name the features of the types it
// uses that the map names. (Types that only inherit features from items
// using them pass nothing on, so a feature does not spread sideways from a
// shared type to unrelated items.)
func (a *assigner) inherit(g *Gate, uses ...*Type) {
	if a.explicit[g] || a.umbrella[g] {
		return
	}
	for _, t := range uses {
		if t != nil && t.Unstable && a.explicit[&t.Gate] {
			a.add(g, t.Features)
		}
	}
}

// pass gives the types an item uses the item's features.
func (a *assigner) pass(g Gate, uses ...*Type) {
	for _, t := range uses {
		if t != nil && t.Unstable {
			a.add(&t.Gate, g.Features)
		}
	}
}

func (a *assigner) propagate(t *Type) {
	fieldGate := func(owner Gate, f *Field) {
		uses := refTypes(f.Type)
		if f.Unstable {
			a.inherit(&f.Gate, uses...)
			a.pass(f.Gate, uses...)
		} else {
			a.pass(owner, uses...)
		}
	}
	for _, f := range t.Fields {
		fieldGate(t.Gate, f)
	}
	if t.Underlying != nil {
		a.pass(t.Gate, refTypes(*t.Underlying)...)
	}
	if t.Union == nil {
		return
	}
	for _, v := range t.Union.All() {
		owner := t.Gate
		uses := append([]*Type(nil), v.Embeds...)
		if v.Value != nil {
			uses = append(uses, refTypes(*v.Value)...)
		}
		if v.Unstable {
			for _, f := range v.Fields {
				uses = append(uses, refTypes(f.Type)...)
			}
			a.inherit(&v.Gate, uses...)
			owner = v.Gate
		}
		a.pass(owner, uses...)
		for _, f := range v.Fields {
			fieldGate(owner, f)
		}
	}
}

// refTypes lists the named types a reference uses.
func refTypes(r Ref) []*Type {
	switch {
	case r.Type != nil:
		return []*Type{r.Type}
	case r.Elem != nil:
		return refTypes(*r.Elem)
	}
	return nil
}

func findVariant(t *Type, tag string) *Variant {
	if t == nil || t.Union == nil {
		return nil
	}
	for _, v := range t.Union.Variants {
		if v.Tag == tag || (v.Tag == "" && v.Name == tag) {
			return v
		}
	}
	return nil
}

func findField(t *Type, name string) *Field {
	if t == nil {
		return nil
	}
	for _, f := range t.Fields {
		if f.JSONName == name {
			return f
		}
	}
	return nil
}

// forEachGate calls fn for the type and for its unstable fields and variants.
func forEachGate(t *Type, fn func(what string, g *Gate)) {
	fn("type "+t.Name, &t.Gate)
	if t.Unstable {
		return
	}
	for _, f := range t.Fields {
		if f.Unstable {
			fn("field "+t.Name+"."+f.JSONName, &f.Gate)
		}
	}
	if t.Union != nil {
		for _, v := range t.Union.Variants {
			if v.Unstable {
				fn("variant "+t.Name+"."+v.Name, &v.Gate)
			}
		}
	}
	if t.Enum != nil {
		for _, v := range t.Enum.Values {
			if v.Unstable {
				fn("enum value "+t.Name+"."+v.Name, &v.Gate)
			}
		}
	}
}
