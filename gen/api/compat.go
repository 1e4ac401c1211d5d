package api

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/acpgen/acpgen/gen/emit"
	"github.com/acpgen/acpgen/gen/ir"
)

// Class sorts a change by what it breaks for a user who regenerates.
type Class string

const (
	// BreaksGo: code that compiled against the old package may not compile
	// against the new one (removed or renamed identifiers, changed types,
	// items that need another build tag).
	BreaksGo Class = "breaks-go"
	// BreaksWire: messages that one revision accepts or writes, the other
	// rejects or reads differently (newly required fields, removed variants,
	// enum values and methods, narrowed types).
	BreaksWire Class = "breaks-wire"
	// Compatible: additions and widenings.
	Compatible Class = "compatible"
)

// Finding is one change between two revisions of a protocol version.
type Finding struct {
	Version string `json:"version"` // "v1"
	Class   Class  `json:"class"`
	// Features are the build tags that enable the item, any one of them;
	// empty when it is stable. A removed item carries its old tags.
	Features []string `json:"features,omitempty"`
	Change   string   `json:"change"` // what happened, in a sentence fragment
}

// elem is one item of a package's surface, keyed by its schema identity so
// that a Go rename shows as a change of the same item.
type elem struct {
	key    string // "field SessionInfo.archived"
	parent string // key of the item it belongs to, "" for types and methods
	via    string // a variant's member from the payload it embeds: that type's key
	goDecl string // the Go declaration users write against; "" if none
	goSig  string // what of goDecl the item itself decides (not its owner's name)
	gate   ir.Gate
	// wire facts
	wire     string // the JSON shape of a field's value
	required bool
	nullable bool
	open     bool // enums: unknown values are kept
	removal  string
}

// surface lists the items of p by key.
func surface(p *ir.Package) map[string]*elem {
	out := map[string]*elem{}
	add := func(e *elem, own, owner ir.Gate) {
		if e.goSig == "" {
			e.goSig = e.goDecl
		}
		e.gate = own
		if !own.Unstable {
			e.gate = owner
		}
		out[e.key] = e
	}
	fields := func(ownerKey, ownerGo, via string, fs []*ir.Field, g ir.Gate) {
		for _, f := range fs {
			add(&elem{
				via:      via,
				key:      "field " + ownerKey[strings.Index(ownerKey, " ")+1:] + "." + f.JSONName,
				parent:   ownerKey,
				goDecl:   "field " + ownerGo + "." + f.GoName + " " + emit.FieldType(f),
				goSig:    f.GoName + " " + emit.FieldType(f),
				wire:     wireShape(f.Type),
				required: f.Required,
				nullable: f.Nullable,
			}, f.Gate, g)
		}
	}
	for _, t := range p.Types {
		key := "type " + t.Name
		e := &elem{key: key, goDecl: "type " + t.GoName + " " + kindWord(t)}
		if t.Enum != nil {
			e.open = t.Enum.Open
		}
		add(e, t.Gate, ir.Gate{})
		fields(key, t.GoName, "", t.Fields, out[key].gate)
		if t.Enum != nil {
			for _, v := range t.Enum.Values {
				add(&elem{key: "value " + t.Name + "." + v.Name, parent: key, goDecl: "const " + v.GoName}, v.Gate, out[key].gate)
			}
		}
		if t.Union == nil {
			continue
		}
		variants := t.Union.Variants
		if t.Union.Default != nil {
			variants = append(variants[:len(variants):len(variants)], t.Union.Default)
		}
		for _, v := range variants {
			vkey := "variant " + t.Name + "." + v.Name
			decl := "type " + v.GoName + " (variant)"
			if len(v.Embeds) > 0 {
				var embeds []string
				for _, e := range v.Embeds {
					embeds = append(embeds, e.GoName)
				}
				decl = "type " + v.GoName + " (variant embedding " + strings.Join(embeds, ", ") + ")"
			}
			add(&elem{key: vkey, parent: key, goDecl: decl}, v.Gate, out[key].gate)
			// The members on the wire: its own, and those of the payloads it
			// embeds (which Go promotes).
			fields(vkey, v.GoName, "", v.Fields, out[vkey].gate)
			for _, e := range v.Embeds {
				fields(vkey, v.GoName, "type "+e.Name, e.Fields, out[vkey].gate)
			}
		}
		for _, r := range t.Union.Removed {
			add(&elem{key: "variant " + t.Name + "." + r.Tag, parent: key, removal: r.Reason}, ir.Gate{}, out[key].gate)
		}
	}
	for _, m := range p.Methods {
		kind := "request "
		if m.Kind == ir.Notification {
			kind = "notification "
		}
		add(&elem{key: kind + m.Name, goDecl: "const " + m.Const}, m.Gate, ir.Gate{})
	}
	for _, e := range runtimeElems(p) {
		add(e, ir.Gate{}, ir.Gate{})
	}
	return out
}

// runtimeElems lists the runtimes p has as items of its surface.
func runtimeElems(p *ir.Package) []*elem {
	var out []*elem
	for _, r := range runtimes {
		if r.has(p) {
			out = append(out, &elem{key: "runtime " + r.name, goDecl: r.decl})
		}
	}
	return out
}

// runtimes are the parts of a package copied from templates that a
// package gets only when its schema has every definition they use: a
// revision without one drops its whole API.
var runtimes = []struct {
	name, decl string
	has        func(*ir.Package) bool
}{
	{"json-rpc", "the JSON-RPC layer: Message, DecodeMessage, RequestID, the method tables", func(p *ir.Package) bool { return p.RPC }},
	{"connections", "the connections of both sides: their Conn types, Handler, Middleware, ConnOption", func(p *ir.Package) bool { return p.Conn }},
	{"sessions", "the session runtime: SessionState, SessionRouter, ActiveSession, SessionSnapshot", func(p *ir.Package) bool { return p.Sessions }},
	{"turns", "the turn runtime: TurnRunner, Turn, TurnOptions, SessionAgent", func(p *ir.Package) bool { return p.Turns }},
}

func kindWord(t *ir.Type) string {
	switch t.Kind {
	case ir.Struct:
		return "struct"
	case ir.Enum:
		return "enum"
	case ir.Union:
		return "union"
	case ir.Raw:
		return "json.RawMessage"
	}
	return emit.RefType(*t.Underlying)
}

// wireShape describes the JSON a value of r may be.
func wireShape(r ir.Ref) string {
	switch r.Kind {
	case ir.RefNamed:
		if r.Type.Kind == ir.Named {
			return wireShape(*r.Type.Underlying)
		}
		if r.Type.Kind == ir.Raw {
			return "any"
		}
		return r.Type.Name
	case ir.RefString:
		return "string"
	case ir.RefBool:
		return "boolean"
	case ir.RefInt:
		return "integer"
	case ir.RefFloat:
		return "number"
	case ir.RefArray:
		return "array of " + wireShape(*r.Elem)
	case ir.RefMap:
		return "map of " + wireShape(*r.Elem)
	}
	return "any"
}

// widens reports whether every value of shape old is a value of shape new.
func widens(old, new string) bool {
	if old == new || new == "any" {
		return true
	}
	if old == "integer" && new == "number" {
		return true
	}
	for _, c := range []string{"array of ", "map of "} {
		if strings.HasPrefix(old, c) && strings.HasPrefix(new, c) {
			return widens(old[len(c):], new[len(c):])
		}
	}
	return false
}

// availableIn reports whether every build that has an item gated by old
// has it gated by new.
func availableIn(old, new ir.Gate) bool {
	if !new.Unstable {
		return true
	}
	if !old.Unstable {
		return false
	}
	for _, f := range old.Features {
		if !contains(new.Features, f) {
			return false
		}
	}
	return len(old.Features) > 0 || len(new.Features) == 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Compare returns the findings between two revisions of a protocol
// version, old or new nil when the revision does not have the version.
func Compare(version string, old, new *ir.Package) []Finding {
	var out []Finding
	add := func(c Class, g ir.Gate, format string, args ...any) {
		out = append(out, Finding{Version: version, Class: c, Features: tagsOf(g), Change: fmt.Sprintf(format, args...)})
	}
	switch {
	case old == nil && new == nil:
		return nil
	case old == nil:
		add(Compatible, ir.Gate{}, "version %s added (package %s)", version, new.Name)
		return out
	case new == nil:
		add(BreaksGo, ir.Gate{}, "version %s removed (package %s)", version, old.Name)
		add(BreaksWire, ir.Gate{}, "version %s removed", version)
		return out
	}
	olds, news := surface(old), surface(new)
	// A payload type in both revisions reports its own changes; the
	// variants that embed it need not repeat them.
	repeated := func(e *elem) bool { return e.via != "" && olds[e.via] != nil && news[e.via] != nil }
	for _, key := range slices.Sorted(maps.Keys(olds)) {
		o, n := olds[key], news[key]
		if repeated(o) && (n == nil || repeated(n)) {
			continue
		}
		if n == nil {
			if olds[o.parent] != nil && news[o.parent] == nil {
				continue // its owner's removal says it
			}
			removed(add, o)
			continue
		}
		changed(add, o, n, olds[o.parent], news[n.parent])
	}
	for _, key := range slices.Sorted(maps.Keys(news)) {
		n := news[key]
		if olds[key] != nil || (n.parent != "" && olds[n.parent] == nil) || repeated(n) {
			continue // present before, or part of a new owner
		}
		if n.removal != "" {
			continue
		}
		switch {
		case strings.HasPrefix(key, "field ") && n.required:
			add(BreaksWire, n.gate, "%s added, required: messages from older peers lack it", key)
			add(Compatible, n.gate, "%s added", n.goDecl)
		case strings.HasPrefix(key, "value ") && !news[n.parent].open:
			add(Compatible, n.gate, "%s added (%s); older peers reject it: the enum is closed", key, n.goDecl)
		case n.goDecl != "":
			add(Compatible, n.gate, "%s added (%s)", key, n.goDecl)
		}
	}
	return out
}

func removed(add func(Class, ir.Gate, string, ...any), o *elem) {
	if o.removal != "" {
		return // already rejected on decoding
	}
	if o.goDecl != "" {
		add(BreaksGo, o.gate, "%s removed (%s)", o.key, o.goDecl)
	}
	switch {
	case strings.HasPrefix(o.key, "variant "):
		add(BreaksWire, o.gate, "%s removed: it now decodes as the union's Other variant", o.key)
	case strings.HasPrefix(o.key, "value "):
		add(BreaksWire, o.gate, "%s removed: an open enum keeps it as an unknown value, a closed one rejects it", o.key)
	case strings.HasPrefix(o.key, "field ") && o.required:
		add(BreaksWire, o.gate, "%s removed: older peers, which require it, reject messages from newer ones", o.key)
	case strings.HasPrefix(o.key, "request "), strings.HasPrefix(o.key, "notification "):
		add(BreaksWire, o.gate, "%s removed: peers that call it get method not found", o.key)
	}
}

// changed compares an item of both revisions; op and np are its owner in
// each (nil for types and methods).
func changed(add func(Class, ir.Gate, string, ...any), o, n, op, np *elem) {
	if o.goSig != n.goSig && o.goDecl != "" {
		if n.goDecl == "" {
			add(BreaksGo, o.gate, "%s: %s removed", o.key, o.goDecl)
		} else {
			add(BreaksGo, n.gate, "%s: %s is now %s", o.key, o.goDecl, n.goDecl)
		}
	}
	switch {
	case op != nil && np != nil && op.gate.Key() == o.gate.Key() && np.gate.Key() == n.gate.Key():
		// It moved with its owner, which says so.
	case !availableIn(o.gate, n.gate):
		add(BreaksGo, n.gate, "%s needs build tags %s (was %s)", o.key, tagWords(n.gate), tagWords(o.gate))
	case o.gate.Key() != n.gate.Key():
		add(Compatible, n.gate, "%s is built with tags %s (was %s)", o.key, tagWords(n.gate), tagWords(o.gate))
	}
	if n.removal != "" && o.removal == "" {
		add(BreaksWire, n.gate, "%s removed from the protocol version: decoding it is an error", o.key)
	}
	if !o.required && n.required {
		add(BreaksWire, n.gate, "%s is now required: messages from older peers may lack it", o.key)
	}
	if o.required && !n.required {
		add(Compatible, n.gate, "%s is now optional (older peers still require it)", o.key)
	}
	if o.nullable && !n.nullable {
		add(BreaksWire, n.gate, "%s no longer accepts null", o.key)
	}
	if !o.nullable && n.nullable {
		add(Compatible, n.gate, "%s now accepts null", o.key)
	}
	if o.wire != n.wire {
		c := BreaksWire
		if widens(o.wire, n.wire) {
			c = Compatible
		}
		add(c, n.gate, "%s: JSON %s is now %s", o.key, o.wire, n.wire)
	}
	if o.open && !n.open && strings.HasSuffix(n.goDecl, " enum") {
		add(BreaksWire, n.gate, "%s is now a closed enum: unknown values are rejected", o.key)
	}
}

func tagsOf(g ir.Gate) []string {
	if !g.Unstable {
		return nil
	}
	return g.Tags()
}

func tagWords(g ir.Gate) string {
	if !g.Unstable {
		return "none (stable)"
	}
	return strings.Join(g.Tags(), " or ")
}
