package check

import (
	"sort"

	"github.com/acpgen/acpgen/gen/ir"
)

// Lower decides, once, the classifications of p that the emitter reads
// rather than works out, and records them in the IR as plain data:
//
//   - the shape of each union (ir.UnionInfo.Objects): whether its variants
//     are objects whose members share one object with a tag, shared fields
//     or an outer union's tag;
//   - which unions can hold an unknown variant kept raw, their own or one
//     inside a payload (HoldsRaw), and which of those other unions' variants
//     embed (Carrier);
//   - the Error definition of the JSON-RPC layer and its code
//     (ir.Package.Error, ErrorCode);
//   - whether the package has the JSON-RPC message layer and the two sides
//     (ir.Package.RPC, Sides).
//
// Package runs it before its checks, which read the same decisions; p is
// not changed after (ir.Select, which drops variants and types, comes
// before).
func Lower(p *ir.Package) {
	lower(p, newShaper())
}

func lower(p *ir.Package, s *shaper) {
	var unions []*ir.Type
	embedded := map[*ir.Type]bool{}
	for _, t := range p.Types {
		if t.Kind != ir.Union {
			continue
		}
		unions = append(unions, t)
		t.Union.Objects = s.objectUnion(t)
		for _, v := range t.Union.All() {
			for _, e := range v.Embeds {
				if e.Kind == ir.Union {
					embedded[e] = true
				}
			}
		}
	}
	for _, t := range unions {
		t.Union.Carrier = embedded[t] && keepsRaw(t, map[*ir.Type]bool{})
	}
	for _, t := range unions {
		t.Union.HoldsRaw = t.Union.Fallback != nil
		for _, v := range t.Union.All() {
			for _, e := range v.Embeds {
				t.Union.HoldsRaw = t.Union.HoldsRaw || (e.Kind == ir.Union && e.Union.Carrier)
			}
		}
	}
	for _, t := range unions {
		t.Union.OtherShared = otherShared(t)
	}
	p.Error, p.ErrorCode = errorType(p)
	p.RPC = hasRPC(p)
	p.Conn = p.RPC && len(p.Sides) == 2
	p.Sessions, p.PlanOps = sessions(p)
	p.Turns = p.Sessions && meets(p, turnNeeds[p.Version])
}

// otherShared lists, sorted, the stable members that an unknown variant of
// the tagged union t is decoded for (ir.UnionInfo.OtherShared).
func otherShared(t *ir.Type) []string {
	u := t.Union
	if u.Tag == "" || u.Fallback == nil {
		return nil
	}
	seen := map[string]bool{u.Tag: true}
	var out []string
	add := func(fields []*ir.Field) {
		for _, f := range fields {
			if !f.Unstable && !seen[f.JSONName] {
				seen[f.JSONName] = true
				out = append(out, f.JSONName)
			}
		}
	}
	add(t.Fields)
	add(u.Fallback.Fields)
	visited := map[*ir.Type]bool{}
	var embeds func(types []*ir.Type)
	embeds = func(types []*ir.Type) {
		for _, e := range types {
			if visited[e] || e.Unstable {
				continue
			}
			visited[e] = true
			add(e.Fields)
			if e.Kind == ir.Union {
				for _, v := range e.Union.All() {
					add(v.Fields)
					embeds(v.Embeds)
				}
			}
		}
	}
	embeds(u.Fallback.Embeds)
	sort.Strings(out)
	return out
}

// keepsRaw reports whether a value of t can be an unknown variant kept raw,
// at any depth of the unions its variants embed.
func keepsRaw(t *ir.Type, seen map[*ir.Type]bool) bool {
	if t.Kind != ir.Union || seen[t] {
		return false
	}
	seen[t] = true
	if t.Union.Fallback != nil {
		return true
	}
	for _, v := range t.Union.All() {
		for _, e := range v.Embeds {
			if keepsRaw(e, seen) {
				return true
			}
		}
	}
	return false
}

// errorType returns the stable Error definition of p when it is an object,
// and its "code" member (nil when it has none).
func errorType(p *ir.Package) (*ir.Type, *ir.Field) {
	for _, t := range p.Types {
		if t.Name == "Error" && !t.Unstable && t.Kind == ir.Struct {
			return t, member(t, "code")
		}
	}
	return nil, nil
}

// hasRPC reports whether p has what the JSON-RPC message layer builds on:
// the stable RequestId and Error (an object, p.Error) definitions and some
// methods.
func hasRPC(p *ir.Package) bool {
	var id bool
	for _, t := range p.Types {
		id = id || (t.Name == "RequestId" && !t.Unstable)
	}
	return id && p.Error != nil && len(p.Methods) > 0
}

// shaper works out which unions are objects, each once. A union that is,
// through the payloads of its variants, a payload of itself is taken as
// not one, and kept in self for the check to report.
type shaper struct {
	objects map[*ir.Type]int // unknown, visiting, yes or no
	self    map[*ir.Type]bool
}

func newShaper() *shaper {
	return &shaper{objects: map[*ir.Type]int{}, self: map[*ir.Type]bool{}}
}

const (
	unknown = iota
	visiting
	yes
	no
)

// objectUnion reports whether every variant of union t is an object.
func (s *shaper) objectUnion(t *ir.Type) bool {
	switch s.objects[t] {
	case visiting:
		s.objects[t] = no
		s.self[t] = true
		return false
	case yes:
		return true
	case no:
		return false
	}
	s.objects[t] = visiting
	ok := t.Union.Tag != "" || t.Union.Fallback == nil // an untagged fallback keeps any JSON value
	for _, v := range t.Union.All() {
		ok = ok && s.objectVariant(t, v)
	}
	if s.objects[t] == visiting {
		s.objects[t] = no
		if ok {
			s.objects[t] = yes
		}
	}
	return s.objects[t] == yes
}

// objectVariant reports whether variant v of t is an object.
func (s *shaper) objectVariant(t *ir.Type, v *ir.Variant) bool {
	if !v.IsObject() || (t.Union.Tag == "" && v.JSON != ir.KindObject) {
		return false
	}
	for _, e := range v.Embeds {
		if !s.hasMembers(e) {
			return false
		}
	}
	return true
}

// hasMembers reports whether values of t are JSON objects whose members
// can be written into another object.
func (s *shaper) hasMembers(t *ir.Type) bool {
	for seen := map[*ir.Type]bool{}; !seen[t]; {
		seen[t] = true
		switch t.Kind {
		case ir.Struct:
			return true
		case ir.Union:
			return s.objectUnion(t)
		case ir.Named:
			if t.Underlying.Kind != ir.RefNamed {
				return false
			}
			t = t.Underlying.Type
			continue
		}
		return false
	}
	return false // defined types that name each other: reported by cycles
}
