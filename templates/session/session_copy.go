//go:build ignore

package acp

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sync"
	"sync/atomic"
)

// deepCopy returns a pointer to a copy of *p, a value of the generated
// types (or a slice of or pointer to one), that shares no memory with it:
// a snapshot handed out, or an update taken in, cannot change what the
// state holds. It copies the value's structure: every pointer, list, map
// and union variant is new, free-form JSON (raw members, unknown variants,
// _meta) is copied byte for byte, and strings, which cannot change, are
// shared. A type whose structure cannot be copied that way (one with an
// unexported member holding memory; the generated types have none) is
// copied by encoding and decoding it with its generated code instead. A
// nil p is returned as it is. P is a pointer type, so that every use
// shares one instantiation.
func deepCopy[P any](p P) P {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return p
	}
	c := copierOf(v.Type().Elem())
	if c.unsupported {
		return copyByJSON(p)
	}
	out := reflect.New(v.Type().Elem())
	if c.copy == nil {
		out.Elem().Set(v.Elem())
	} else {
		c.copy(out.Elem(), v.Elem())
	}
	return out.Interface().(P)
}

// copyByJSON is deepCopy by a JSON round trip through the generated
// encoder and decoder of the type. A value that does not encode (a union
// without a variant, built by hand) is not copied: p is returned.
func copyByJSON[P any](p P) P {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // free-form JSON stays as it was: no \u003c for <
	if err := enc.Encode(p); err != nil {
		return p
	}
	out, err := newValue(p, json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte("\n"))))
	if err != nil {
		return p
	}
	return out.(P)
}

// A copier copies values of one type. copy sets dst, which is settable,
// to a copy of src; it is nil for a type that holds no memory of its own
// (numbers, strings, booleans, and structs and arrays of them), which
// assignment copies. unsupported marks a type that holds memory
// reflection cannot reach: an unexported member that is a pointer, a
// list, a map or an interface, or a channel or a function.
type copier struct {
	copy        func(dst, src reflect.Value)
	unsupported bool
}

// typeCopier is a type and its copier.
type typeCopier struct {
	t reflect.Type
	c *copier
}

var (
	copiers  sync.Map // reflect.Type -> *copier, once complete
	copierMu sync.Mutex
)

// copierOf returns the copier of t, building it (and those of the types t
// holds) on first use.
func copierOf(t reflect.Type) *copier {
	if c, ok := copiers.Load(t); ok {
		return c.(*copier)
	}
	copierMu.Lock()
	defer copierMu.Unlock()
	building := map[reflect.Type]*copier{}
	c := buildCopier(t, building)
	for t, c := range building {
		copiers.Store(t, c)
	}
	return c
}

// buildCopier builds the copier of t. building holds the copiers being
// built, so that a type that holds itself (through a pointer, a list or a
// map) reaches its own copier, which is complete by the time it runs.
func buildCopier(t reflect.Type, building map[reflect.Type]*copier) *copier {
	if c, ok := copiers.Load(t); ok {
		return c.(*copier)
	}
	if c, ok := building[t]; ok {
		return c
	}
	c := &copier{}
	building[t] = c
	switch t.Kind() {
	case reflect.Pointer:
		elem := buildCopier(t.Elem(), building)
		c.copy = func(dst, src reflect.Value) {
			if src.IsNil() {
				dst.SetZero()
				return
			}
			n := reflect.New(t.Elem())
			copyInto(elem, n.Elem(), src.Elem())
			dst.Set(n)
		}
		c.unsupported = elem.unsupported
	case reflect.Slice:
		c.copy, c.unsupported = sliceCopier(t, building)
	case reflect.Map:
		c.copy, c.unsupported = mapCopier(t, building)
	case reflect.Interface:
		var last atomic.Pointer[typeCopier] // the variant seen last, most often the next
		c.copy = func(dst, src reflect.Value) {
			if src.IsNil() {
				dst.SetZero()
				return
			}
			e := src.Elem()
			tc := last.Load()
			if tc == nil || tc.t != e.Type() {
				tc = &typeCopier{e.Type(), copierOf(e.Type())}
				last.Store(tc)
			}
			ec := tc.c
			if ec.unsupported && e.Kind() == reflect.Pointer {
				dst.Set(reflect.ValueOf(copyByJSON(e.Interface())))
				return
			}
			n := reflect.New(e.Type()).Elem()
			copyInto(ec, n, e)
			dst.Set(n)
		}
	case reflect.Struct:
		c.copy, c.unsupported = structCopier(t, building)
	case reflect.Array:
		elem := buildCopier(t.Elem(), building)
		if elem.copy != nil {
			c.copy = func(dst, src reflect.Value) {
				for i := range src.Len() {
					elem.copy(dst.Index(i), src.Index(i))
				}
			}
		}
		c.unsupported = elem.unsupported
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		c.unsupported = true
	}
	return c
}

// copyInto sets dst to a copy of src with c, the copier of their type.
func copyInto(c *copier, dst, src reflect.Value) {
	if c.copy == nil {
		dst.Set(src)
		return
	}
	c.copy(dst, src)
}

// sliceCopier copies a list into a new one of the same length, nil
// staying nil; a list of bytes (free-form JSON) is copied byte for byte.
func sliceCopier(t reflect.Type, building map[reflect.Type]*copier) (func(dst, src reflect.Value), bool) {
	if t.Elem().Kind() == reflect.Uint8 {
		return func(dst, src reflect.Value) {
			if src.IsNil() {
				dst.SetZero()
				return
			}
			dst.SetBytes(append(make([]byte, 0, src.Len()), src.Bytes()...))
		}, false
	}
	elem := buildCopier(t.Elem(), building)
	return func(dst, src reflect.Value) {
		if src.IsNil() {
			dst.SetZero()
			return
		}
		n := reflect.MakeSlice(t, src.Len(), src.Len())
		if elem.copy == nil {
			reflect.Copy(n, src)
		} else {
			for i := range src.Len() {
				elem.copy(n.Index(i), src.Index(i))
			}
		}
		dst.Set(n)
	}, elem.unsupported
}

// mapCopier copies a map into a new one, nil staying nil.
func mapCopier(t reflect.Type, building map[reflect.Type]*copier) (func(dst, src reflect.Value), bool) {
	key, elem := buildCopier(t.Key(), building), buildCopier(t.Elem(), building)
	return func(dst, src reflect.Value) {
		if src.IsNil() {
			dst.SetZero()
			return
		}
		n := reflect.MakeMapWithSize(t, src.Len())
		k, v := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
		for it := src.MapRange(); it.Next(); {
			copyInto(key, k, it.Key())
			copyInto(elem, v, it.Value())
			n.SetMapIndex(k, v)
		}
		dst.Set(n)
	}, key.unsupported || elem.unsupported
}

// structCopier assigns the struct, then copies the members that hold
// memory; it is nil when none does. The members of an embedded struct of
// an unexported type (the fields a build tag adds) are copied in place.
func structCopier(t reflect.Type, building map[reflect.Type]*copier) (func(dst, src reflect.Value), bool) {
	members, unsupported := structMembers(t, building)
	if members == nil {
		return nil, unsupported
	}
	return func(dst, src reflect.Value) {
		dst.Set(src)
		members(dst, src)
	}, unsupported
}

// structMembers returns what copies the members of a struct of type t
// that hold memory, once the struct is assigned; nil when none does.
func structMembers(t reflect.Type, building map[reflect.Type]*copier) (func(dst, src reflect.Value), bool) {
	type member struct {
		index    int
		c        *copier                      // an exported member's
		embedded func(dst, src reflect.Value) // an embedded struct's members
	}
	var members []member
	unsupported := false
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() && f.Anonymous && f.Type.Kind() == reflect.Struct {
			inner, u := structMembers(f.Type, building)
			unsupported = unsupported || u
			if inner != nil {
				members = append(members, member{index: i, embedded: inner})
			}
			continue
		}
		fc := buildCopier(f.Type, building)
		unsupported = unsupported || fc.unsupported
		if fc.copy == nil && !holdsMemory(f.Type) {
			continue
		}
		if !f.IsExported() {
			unsupported = true
			continue
		}
		members = append(members, member{index: i, c: fc})
	}
	if len(members) == 0 {
		return nil, unsupported
	}
	return func(dst, src reflect.Value) {
		for _, m := range members {
			switch {
			case m.embedded != nil:
				m.embedded(dst.Field(m.index), src.Field(m.index))
			case m.c.copy != nil:
				// The copier of a type still being built is complete by now.
				m.c.copy(dst.Field(m.index), src.Field(m.index))
			}
		}
	}, unsupported
}

// holdsMemory reports whether a value of t refers to memory assignment
// would share: a member of such a type is copied even while its type's
// copier is still being built.
func holdsMemory(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	}
	return false
}

// keepOrCopy returns p itself when owned (its holder hands it over), and
// deepCopy(p) when not.
func keepOrCopy[P any](owned bool, p P) P {
	if owned {
		return p
	}
	return deepCopy(p)
}
