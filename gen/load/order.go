package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Go maps forget the order of an object's keys; generated code keeps the
// order in which the file lists properties. keyTree reads that order from
// the file's text into a tree of its objects and arrays, and orderOf matches
// the tree with the compiled schemas, so that finding the order of a
// schema's properties costs the same at any depth.

// keyNode is one JSON object or array of the document.
type keyNode struct {
	keys []string            // an object's keys, in document order
	kids map[string]*keyNode // the objects and arrays in it, by key or index
}

// keyTree walks a JSON document with the standard library's tokenizer and
// returns the tree of its objects and arrays.
func keyTree(data []byte) (*keyNode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	root, err := walkValue(dec, nil)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the schema document")
	}
	return root, nil
}

// walkValue reads one value; at reports where it is when it fails.
func walkValue(dec *json.Decoder, at *jsonPath) (*keyNode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("at %q: %w", at.String(), err)
	}
	var n *keyNode
	add := func(key string) error {
		kid, err := walkValue(dec, at.child(key))
		if kid != nil {
			if n.kids == nil {
				n.kids = map[string]*keyNode{}
			}
			n.kids[key] = kid
		}
		return err
	}
	switch tok {
	case json.Delim('{'):
		n = &keyNode{keys: []string{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, fmt.Errorf("at %q: %w", at.String(), err)
			}
			k := kt.(string)
			n.keys = append(n.keys, k)
			if err := add(k); err != nil {
				return nil, err
			}
		}
	case json.Delim('['):
		n = &keyNode{}
		for i := 0; dec.More(); i++ {
			if err := add(strconv.Itoa(i)); err != nil {
				return nil, err
			}
		}
	default:
		return nil, nil
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("at %q: %w", at.String(), err)
	}
	return n, nil
}

// kid returns the member or element key of n, or nil.
func (n *keyNode) kid(key string) *keyNode {
	if n == nil {
		return nil
	}
	return n.kids[key]
}

// orderOf records in order the property order of s and of every schema in
// it, n being the node of s in the file's tree. References are not
// followed: each definition is walked from its own node.
func orderOf(s *jsonschema.Schema, n *keyNode, order map[*jsonschema.Schema][]string) {
	if s == nil || n == nil {
		return
	}
	props := n.kid("properties")
	if props != nil {
		order[s] = props.keys
	}
	for name, p := range s.Properties {
		orderOf(p, props.kid(name), order)
	}
	if a, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
		orderOf(a, n.kid("additionalProperties"), order)
	}
	if i, ok := s.Items.(*jsonschema.Schema); ok {
		orderOf(i, n.kid("items"), order)
	}
	orderOf(s.Items2020, n.kid("items"), order)
	orderOf(s.Not, n.kid("not"), order)
	for _, l := range []struct {
		key  string
		list []*jsonschema.Schema
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
		arr := n.kid(l.key)
		for i, b := range l.list {
			orderOf(b, arr.kid(strconv.Itoa(i)), order)
		}
	}
}
