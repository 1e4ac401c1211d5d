// Package ir is the generator's intermediate representation: plain data that
// describes the Go types to emit, built from compiled schema files. It holds
// schema names and facts; package names fills in the Go identifiers and package
// emit turns it into code.
package ir

import (
	"sort"
	"strings"
)

// Package is one generated Go package: one protocol version.
type Package struct {
	Name    string // Go package name, e.g. "acpv1"
	Version string // protocol version directory, e.g. "v1"
	Source  string // where the schema came from, for the file header
	Types   []*Type
	Methods []*Method
	// Constructors are the union constructors (see Constructors), set by
	// package names, which names them.
	Constructors []*Constructor
	// Shortcuts are the helpers that nest constructors for the messages
	// every agent sends (see Shortcuts), set by package names.
	Shortcuts []*Shortcut
	Sides     []*Side // the agent and the client (AddSides)
	// RPC: the package has the JSON-RPC message layer (the stable RequestId
	// and Error definitions, and methods); Conn: and the connections of its
	// two sides. Decided by check.Lower.
	RPC, Conn bool
	// Error is the stable Error definition when it is an object, which the
	// JSON-RPC layer's errors are, and ErrorCode its "code" member; nil
	// when the schema has none. Decided by check.Lower.
	Error     *Type
	ErrorCode *Field
	// Sessions: the package has the session state, the client's session
	// router and the agent's plan calls (the session runtime files), as its
	// schema has every definition and member they use; PlanOps is then the
	// gate of the plan operations they handle, nil when the schema has
	// none. Decided by check.Lower.
	Sessions bool
	PlanOps  *Gate
	// Turns: the package has the session runtime and the v2 prompt
	// lifecycle that the turn runtime files run (an agent's TurnRunner, the
	// session contract, the client's cancel), as its schema has every
	// definition and member they use, stable. Decided by check.Lower.
	Turns bool

	// MethodConstructors are the constructors of the methods' params and
	// results (see MethodConstructors), set and named by package names.
	MethodConstructors []*MethodConstructor

	// StableFile and UnstableFile are the schema files the package was read
	// from ("v1/schema.json"; "" when there is no unstable file): located
	// errors about an item name the file it comes from.
	StableFile, UnstableFile string
	// MethodTables are the maps through which build-tagged files add
	// unstable methods to the functions of the methods file, by function
	// ("NewResult": "newResultUnstable"); set by package names.
	MethodTables map[string]string
	// Tests: the package gets the generated test files too (the table of
	// its definitions that acpgen's own tests read); only on request.
	Tests bool
}

// FileOf returns the schema file an item with gate g comes from.
func (p *Package) FileOf(g Gate) string {
	if g.Unstable && p.UnstableFile != "" {
		return p.UnstableFile
	}
	return p.StableFile
}

// Kind says what Go construct a Type becomes.
type Kind int

const (
	// Struct is a JSON object with known properties.
	Struct Kind = iota
	// Named is a defined type over a scalar, slice or map (Type.Underlying).
	Named
	// Enum is a string or integer type with named constants.
	Enum
	// Raw is free-form JSON, kept as json.RawMessage.
	Raw
	// Union is a tagged or untagged union; Type.Fields holds properties
	// that every variant shares.
	Union
)

// Type is one named Go type.
type Type struct {
	Name    string // schema name ("SessionId"), or a synthesized one
	GoName  string // filled by package names
	Doc     string
	Pointer string // JSON pointer of its schema in the file
	Kind    Kind
	Gate

	Underlying *Ref     // Named
	Fields     []*Field // Struct, and the shared properties of a Union
	Enum       *EnumInfo
	Union      *UnionInfo

	// Extra: a Struct whose schema declares additionalProperties; the
	// members it does not name are kept as received in its Extra map.
	Extra bool
	// Closed: a Struct whose schema forbids members it does not name
	// (additionalProperties: false); one is a decoding error. A Struct
	// neither Extra nor Closed allows them without saying so: they are kept
	// as received, out of sight, and written back after the named members.
	Closed bool
	// KeepsUnknown, decided by check: a Struct that keeps the members its
	// schema allows without naming them (neither Extra nor Closed, and not
	// decoded as one of several parts of an object).
	KeepsUnknown bool

	// Extensions are the Go names of the embedded structs that carry the
	// unstable fields of a stable type, by gate key (ExtensionKeys); set by
	// package names.
	Extensions map[string]string

	// Defaulted: a Struct that a member whose schema default is an object
	// holds, which the constructors fill with an empty one (Fill). Such a
	// value carries a mark, so that it is left out on the wire while it
	// says no more than the default, and a value that was decoded or built
	// otherwise is written as it is.
	Defaulted bool

	// Parent is the type an inline type is part of (nil for a definition)
	// and Member what Name adds to Parent's: a property ("Content"), "Item",
	// "Value", a branch's title and property, "OtherFields".
	Parent *Type
	Member string
}

// RefKind is the shape of a value's Go type.
type RefKind int

const (
	RefNamed RefKind = iota // a Type
	RefString
	RefBool
	RefInt
	RefFloat
	RefArray
	RefMap // map[string]Elem
	RefRaw // json.RawMessage
)

// Ref is the type of a field, a slice element or a union alternative.
type Ref struct {
	Kind     RefKind
	Type     *Type // RefNamed
	Elem     *Ref  // RefArray, RefMap
	Bits     int   // RefInt: 8, 16, 32 or 64
	Unsigned bool  // RefInt
	Object   bool  // RefRaw: the value must be a JSON object (or null where nullable)
	// Check is what a value must be beyond its Go type (minLength, const,
	// …); nil when nothing.
	Check *Check
}

// Field is one JSON object property.
type Field struct {
	JSONName string
	GoName   string
	Doc      string
	Pointer  string
	Type     Ref
	Required bool
	Nullable bool
	// Null is what an explicit null does (nullability.go); NullMeans is
	// Null == NullDistinct: the property is optional and its null says
	// something of its own ("clear the title"), so Go keeps absent, null
	// and value apart.
	Null      NullUse
	NullMeans bool
	Gate

	DefaultOnError   bool
	SkipInvalidItems bool
	DefaultOnNull    bool
	// DefaultObject: the schema's default of the property is an object
	// ("default": {}); the constructors fill the member with an empty
	// value instead of leaving it nil (see Fill).
	DefaultObject bool
}

// EnumInfo describes an Enum type.
type EnumInfo struct {
	Integer bool // int constants (with Bits) instead of strings
	Bits    int
	Open    bool // unknown values are allowed and kept
	Values  []*EnumValue
}

// EnumValue is one constant of an enum.
type EnumValue struct {
	Name   string // the value, or the schema title for integers
	GoName string
	Doc    string
	String string
	Int    int64
	Gate
}

// UnionInfo describes a Union type.
type UnionInfo struct {
	// Tag is the discriminating property; "" for an untagged union.
	Tag      string
	Variants []*Variant
	// Default is decoded when the tag is absent (or null); it is encoded without tag.
	Default *Variant
	// DefaultTag: the schema's branch of Default does not constrain the
	// tag (no property of that name, no additionalProperties: false, in
	// the branch or the definitions it is made of), so a value with a tag
	// can be the default variant too: a known variant's tag whose object
	// does not fit that variant, or an unknown one. The default variant
	// then keeps the tag it was decoded with, reports it as the union's
	// Tag and writes it back.
	DefaultTag bool
	// UnknownDefault: an unknown tag decodes into Default, as the schema's
	// anyOf (and the reference decoder) read it, when the object fits it;
	// one that does not is kept in Fallback. Set when DefaultTag and the
	// schema has no branch of its own for unknown tags (v1 AuthMethod: a
	// method of a type this package does not know is an agent method).
	UnknownDefault bool
	// Fallback keeps an unknown variant: an unknown tag, or a value that fits
	// no alternative of an untagged union. Tagged unions always have one.
	Fallback *Variant
	// Removed are tags the protocol version dropped: decoding one is an
	// error rather than an unknown variant.
	Removed []RemovedTag

	// Decided by check.Lower, read by the emitter. Objects: every variant
	// is an object whose members share one object with the tag, the shared
	// fields or an outer union's tag. HoldsRaw: a value can be an unknown
	// variant kept raw, its own or one inside a payload. Carrier: HoldsRaw
	// at any depth, and a variant of some union embeds this one.
	Objects, HoldsRaw, Carrier bool
	// OtherShared, decided by check.Lower, are the stable members that an
	// unknown variant of a tagged union is decoded and checked for as a
	// known one is: the union's shared fields, the fallback branch's own
	// and those of the alternatives it requires. Where decoding changed
	// one (a default on error or null, invalid items dropped), the variant's
	// Raw holds it as decoded; the rest of the object stays as received.
	OtherShared []string
	// OtherSharedGated, decided by check.Lower, are the shared fields of a
	// stable union that build tags add (in the extension struct of their
	// gate key, by key), which an unknown variant is decoded and checked
	// for as OtherShared are, in the builds that have them.
	OtherSharedGated map[string][]string

	// The Go names the emitter derives from the union's, set by package
	// names, which claims them: Interface, the interface its variants
	// implement; Marker, the unexported method that seals it; Registry,
	// the map through which build-tagged files add variants; Members, the
	// list of the members of a tagged union that its variants leave to it;
	// Shared, the type through which the shared fields are decoded.
	Interface, Marker, Registry, Members, Shared string
}

// KeepsOther reports whether an unknown variant of the union is decoded
// and checked for members every variant shares (OtherShared, or
// OtherSharedGated in some builds).
func (u *UnionInfo) KeepsOther() bool {
	return len(u.OtherShared) > 0 || len(u.OtherSharedGated) > 0
}

// RemovedTag is a tag a union no longer has, and why.
type RemovedTag struct {
	Tag, Reason string
}

// All returns the variants, then Default, then Fallback.
func (u *UnionInfo) All() []*Variant {
	all := append([]*Variant(nil), u.Variants...)
	if u.Default != nil {
		all = append(all, u.Default)
	}
	if u.Fallback != nil {
		all = append(all, u.Fallback)
	}
	return all
}

// JSONKind is the kind of JSON value an untagged alternative accepts.
type JSONKind string

const (
	KindObject  JSONKind = "object"
	KindArray   JSONKind = "array"
	KindString  JSONKind = "string"
	KindInteger JSONKind = "integer"
	KindNumber  JSONKind = "number"
	KindBoolean JSONKind = "boolean"
	KindNull    JSONKind = "null"
	KindAny     JSONKind = "any"
)

// Variant is one alternative of a union.
type Variant struct {
	Name    string // tag value, or schema title
	GoName  string
	Doc     string
	Pointer string
	Gate

	Tag    string   // tagged unions: the tag value ("" for Default and Fallback)
	Embeds []*Type  // payload definitions whose fields the variant carries
	Fields []*Field // the variant's own properties (the tag excluded)
	// InnerTag, filled by names, is the method that returns the tag of the
	// tagged union a tagged variant holds whole (InnerUnion), named after
	// that union's tag: StateUpdateIdle.StopReason. The variant then has a
	// Tag method of its own, its tag in its union, so that the embedded
	// union's Tag, promoted, does not pass for it.
	InnerTag string

	// Untagged alternatives.
	JSON     JSONKind
	Value    *Ref     // non-object alternatives: the Go type of the value
	Required []string // object alternatives (or the elements of an array one): keys that select it
}

// InnerUnion returns the tagged union a tagged variant holds whole, as its
// one payload and nothing else, or nil.
func (v *Variant) InnerUnion() *Type {
	if v.Tag == "" || len(v.Embeds) != 1 || len(v.Fields) != 0 {
		return nil
	}
	t := v.Embeds[0]
	for t.Kind == Named && t.Underlying.Kind == RefNamed {
		t = t.Underlying.Type
	}
	if t.Kind != Union || t.Union.Tag == "" {
		return nil
	}
	return t
}

// IsObject reports whether the variant is a Go struct (fields and embeds).
func (v *Variant) IsObject() bool {
	return v.Value == nil && v.JSON != KindAny && v.JSON != KindNull
}

// MethodKind distinguishes the three JSON-RPC message shapes.
type MethodKind int

const (
	Request MethodKind = iota
	Notification
)

// Method is one JSON-RPC method of the protocol.
type Method struct {
	Name   string // "session/update"
	GoName string // its handler and outbound call ("SessionUpdate"), filled by names
	Const  string // the constant that holds Name ("MethodSessionUpdate"), filled by names
	Kind   MethodKind
	Side   string // who receives it: agent, client, protocol, proxy
	Params *Type
	Result *Type // requests only
	Gate

	// Required: every implementation of its side handles it (AddSides).
	Required bool
	// Interface is the Go interface of an optional method, filled by names.
	Interface string
}

// Umbrella is the build tag that enables every unstable feature, and
// FeaturePrefix what the name of every feature's own tag begins with
// ("unstable_session_fork").
const (
	Umbrella      = "unstable"
	FeaturePrefix = Umbrella + "_"
)

// Gate says whether an item belongs to the unstable surface of the schema
// (present only in schema.unstable.json), and under which features.
type Gate struct {
	Unstable bool
	// Features are the reference feature names (unstable_plan_operations, …)
	// that enable the item, sorted; empty means only the umbrella tag does.
	Features []string
}

// Key names the set of build tags that enable the item: "" when stable,
// Umbrella when no feature is known, else the features joined by "+".
func (g Gate) Key() string {
	switch {
	case !g.Unstable:
		return ""
	case len(g.Features) == 0:
		return Umbrella
	}
	return strings.Join(g.Features, "+")
}

// Tags returns the build tags that enable the item, umbrella last.
func (g Gate) Tags() []string {
	if !g.Unstable {
		return nil
	}
	return append(append([]string(nil), g.Features...), Umbrella)
}

// ExtensionKeys lists, sorted, the gate keys of the unstable fields of a
// stable type: each key's fields go into a struct of their own that the
// build tags of the key add to the type. An unstable type has none.
func (t *Type) ExtensionKeys() []string {
	if t.Unstable {
		return nil
	}
	seen := map[string]bool{}
	var keys []string
	for _, f := range t.Fields {
		if k := f.Key(); f.Unstable && !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// OwnVariants are the variants that union t's own declaration dispatches
// to: all of an unstable union's, the stable ones of a stable union.
func (t *Type) OwnVariants() []*Variant {
	if t.Unstable {
		return t.Union.Variants
	}
	var out []*Variant
	for _, v := range t.Union.Variants {
		if !v.Unstable {
			out = append(out, v)
		}
	}
	return out
}

// GatedVariants reports whether build-tagged files add variants to union
// t (through a registry): it is stable and has unstable variants.
func (t *Type) GatedVariants() bool {
	return len(t.OwnVariants()) < len(t.Union.Variants)
}
