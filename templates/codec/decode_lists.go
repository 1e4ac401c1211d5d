//go:build ignore

package acp

// decodePointer decodes into a new value, or sets nil for null.
func decodePointer[E any](p **E, d *decoder, elem func(*E, *decoder) error) error {
	if d.PeekKind() == 'n' {
		*p = nil
		return d.SkipValue()
	}
	v := new(E)
	if err := elem(v, d); err != nil {
		return err
	}
	*p = v
	return nil
}

// decodeNullable keeps null apart from a value.
func decodeNullable[T any](p *Nullable[T], d *decoder, elem func(*T, *decoder) error) error {
	*p = Nullable[T]{Present: true}
	if d.PeekKind() == 'n' {
		p.Null = true
		return d.SkipValue()
	}
	return elem(&p.Value, d)
}

// sliceDecoder and mapDecoder return the decoder of a list or map whose
// values elem decodes: nested lists and maps are decoded by nesting calls,
// which keeps the generated code as long as the type, not its square.
func sliceDecoder[E any](elem func(*E, *decoder) error) func(*[]E, *decoder) error {
	return func(s *[]E, d *decoder) error { return decodeSlice(d, s, elem) }
}

func mapDecoder[E any](elem func(*E, *decoder) error) func(*map[string]E, *decoder) error {
	return func(m *map[string]E, d *decoder) error { return decodeMap(d, m, elem) }
}

// firstCap is the capacity of a decoded list when its first item comes: the
// lists of ACP messages are short, and growing one item at a time would
// allocate three times for three items.
const firstCap = 4

// decodeSlice decodes an array; an empty one is an empty slice, not nil.
func decodeSlice[E any](d *decoder, s *[]E, elem func(*E, *decoder) error) error {
	return decodeList(d, s, elem, nullOK)
}

// decodeItems decodes an array and drops the items that fail to decode, as
// x-deserialize-skip-invalid-items asks. A null item is invalid too: the
// schema's items are never nullable.
func decodeItems[E any](d *decoder, s *[]E, elem func(*E, *decoder) error) error {
	return decodeList(d, s, elem, nullOK|dropInvalid)
}

// What array asks of the list it reads.
const (
	listItem  = iota // decode the next item, after those kept
	listDrop         // drop the item decoded last, which failed
	listDone         // the array has ended: set the list
	listNil          // set the default, nil
	listEmpty        // set the default, an empty list
)

// decodeList decodes an array into s by rules: decodeSlice, decodeItems,
// and the decoder of a list member. It is the only part of decoding a
// list that each item type has a copy of: it holds the list, which array,
// the same for all, asks it to change.
func decodeList[E any](d *decoder, s *[]E, elem func(*E, *decoder) error, rules uint8) error {
	out := []E{}
	return d.array(s, rules, func(op int) error {
		switch op {
		case listItem:
			// The item is decoded in place, into zeroed memory: a new
			// array's, or a dropped item's, cleared.
			if len(out) == cap(out) {
				grown := make([]E, len(out), max(2*cap(out), firstCap))
				copy(grown, out)
				out = grown
			}
			out = out[:len(out)+1]
			return elem(&out[len(out)-1], d)
		case listDrop:
			out = out[:len(out)-1]
			clear(out[len(out) : len(out)+1])
		case listDone:
			*s = out
		case listNil:
			*s = nil
		case listEmpty:
			*s = []E{}
		}
		return nil
	})
}

// array reads an array, or null, for the list s whose items list decodes,
// one op (listItem, …) at a time, by the rules of decodeField, and drops
// the items that fail to decode by dropInvalid; a default is the empty
// list by emptyList, and nil otherwise.
//
//go:noinline
func (d *decoder) array(s any, rules uint8, list func(op int) error) error {
	def := listNil
	if rules&emptyList != 0 {
		def = listEmpty
	}
	if d.PeekKind() == 'n' {
		if rules&(nullOK|defaultOnNull|defaultOnError) == 0 {
			return d.mismatch('n', s)
		}
		list(def)
		return d.SkipValue()
	}
	depth := d.StackDepth()
	err := d.items(s, rules&dropInvalid != 0, list)
	if err != nil && rules&defaultOnError != 0 && isTypeError(err) {
		list(def)
		return d.recover(depth)
	}
	return err
}

// items reads the array that comes next for array.
func (d *decoder) items(s any, drop bool, list func(op int) error) error {
	if k := d.PeekKind(); k != '[' {
		return d.mismatch(k, s)
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	depth := d.StackDepth()
	for d.PeekKind() != ']' {
		if drop && d.PeekKind() == 'n' {
			if err := d.SkipValue(); err != nil {
				return err
			}
			continue
		}
		if err := list(listItem); err != nil {
			if !drop || !isTypeError(err) {
				return err
			}
			list(listDrop)
			if err := d.recover(depth); err != nil {
				return err
			}
		}
	}
	list(listDone)
	_, err := d.ReadToken()
	return err
}

// decodeMap decodes an object of values of one type.
func decodeMap[E any](d *decoder, m *map[string]E, elem func(*E, *decoder) error) error {
	switch k := d.PeekKind(); k {
	case '{':
		if _, err := d.ReadToken(); err != nil {
			return err
		}
	case 'n':
		*m = nil
		return d.SkipValue()
	default:
		return d.mismatch(k, m)
	}
	out := map[string]E{}
	for d.PeekKind() != '}' {
		name, err := d.readName()
		if err != nil {
			return err
		}
		var e E
		if err := elem(&e, d); err != nil {
			return fieldError(err, name)
		}
		out[string(name)] = e
	}
	*m = out
	_, err := d.ReadToken()
	return err
}
