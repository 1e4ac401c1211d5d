//go:build ignore

package acp

import "encoding/json"

// The decoders of one member of an object, by the kind of its Go field and
// the rules the schema attaches to it (defaultOnError and the others).

// decodePointerField decodes a member whose Go field is a pointer.
func decodePointerField[E any](d *decoder, p **E, elem func(*E, *decoder) error, rules uint8) error {
	return decodeField(d, p, func(p **E, d *decoder) error { return decodePointer(p, d, elem) }, rules)
}

// decodeMetaField decodes a free-form object member whose null is kept and
// whose other bad values are dropped, as every _meta is: a call of it is
// shorter than decodeField's, and almost every struct has one.
//
//go:noinline
func decodeMetaField(d *decoder, p *json.RawMessage) error {
	return decodeField(d, p, decodeRawObject[json.RawMessage], nullValue|defaultOnError)
}

// decodeOptionalStringField decodes an optional string member whose null
// and bad values leave it nil, the most frequent optional member.
//
//go:noinline
func decodeOptionalStringField(d *decoder, p **string) error {
	return decodePointerField(d, p, decodeString[string], nullOK|defaultOnError)
}

// decodeObjectField decodes a member whose Go field points to a struct into
// a new value that newValue allocates (newObject): one instantiation for
// every struct, as every pointer type argument shares one, where
// decodePointerField would have one per struct. decodeField reads a null,
// which no struct decodes itself.
func decodeObjectField[P restDecoder](d *decoder, p *P, newValue func() P, rules uint8) error {
	return decodeField(d, p, func(p *P, d *decoder) error {
		v := newValue()
		if err := d.object(v); err != nil {
			return err
		}
		*p = v
		return nil
	}, rules)
}

// newObject allocates a zero E, for decodeObjectField: the only code each
// struct type has of its own there. It stays out of line, so that the
// function value of each type calls the one body of its shape.
//
//go:noinline
func newObject[E any]() *E {
	return new(E)
}

// decodeNullableField decodes a member whose null means something of its own.
func decodeNullableField[T any](d *decoder, p *Nullable[T], elem func(*T, *decoder) error, rules uint8) error {
	return decodeField(d, p, func(p *Nullable[T], d *decoder) error { return decodeNullable(p, d, elem) }, rules|nullValue)
}

// decodeListField is decodeField for a list member of a defined type or
// with checks (decodeList decodes the others), whose default is the empty
// list rather than nil when the rules say so (emptyList). After
// decodeField a list is nil only where it set the default: a list decoded
// from an array is never nil.
func decodeListField[S ~[]E, E any](d *decoder, p *S, elem func(*S, *decoder) error, rules uint8) error {
	err := decodeField(d, p, elem, rules)
	if err == nil && *p == nil && rules&emptyList != 0 {
		*p = S{}
	}
	return err
}

// decodeMapField is decodeListField for a map member (emptyMap).
func decodeMapField[M ~map[string]E, E any](d *decoder, p *M, elem func(*M, *decoder) error, rules uint8) error {
	err := decodeField(d, p, elem, rules)
	if err == nil && *p == nil && rules&emptyMap != 0 {
		*p = M{}
	}
	return err
}

// decodeField decodes a member into p with elem, by the member's rules.
// The default it sets is the zero value; decodeListField and
// decodeMapField make a list's or a map's empty.
func decodeField[T any](d *decoder, p *T, elem func(*T, *decoder) error, rules uint8) error {
	var zero T
	if rules&nullValue == 0 && d.PeekKind() == 'n' {
		if rules&(nullOK|defaultOnNull|defaultOnError) == 0 {
			return d.mismatch('n', p)
		}
		*p = zero
		return d.SkipValue()
	}
	depth := d.StackDepth()
	err := elem(p, d)
	if err != nil && rules&defaultOnError != 0 && isTypeError(err) {
		*p = zero
		return d.recover(depth)
	}
	return err
}
