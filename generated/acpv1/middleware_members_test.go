package acpv1

import (
	"encoding/json"
	"testing"
)

// TestObjectMembers: the helpers the middleware reads and sets _meta with
// find, replace, add and remove one member of an object.
func TestObjectMembers(t *testing.T) {
	obj := setObjectMember([]byte(`{"a":1, "b" : [2]}`), "c", json.RawMessage(`"x"`))
	if string(obj) != `{"a":1,"b":[2],"c":"x"}` {
		t.Errorf("set c: %s", obj)
	}
	obj = setObjectMember(obj, "a", json.RawMessage(`{"n":true}`))
	if string(obj) != `{"b":[2],"c":"x","a":{"n":true}}` {
		t.Errorf("set a: %s", obj)
	}
	if obj = setObjectMember(obj, "b", nil); string(obj) != `{"c":"x","a":{"n":true}}` {
		t.Errorf("remove b: %s", obj)
	}
	if obj := setObjectMember(nil, "k", json.RawMessage(`1`)); string(obj) != `{"k":1}` {
		t.Errorf("set on nothing: %s", obj)
	}
	if v := objectMember([]byte(`{"a":{"b":2}}`), "a"); string(v) != `{"b":2}` {
		t.Errorf("member a: %s", v)
	}
	if v := objectMember([]byte(`[1]`), "a"); v != nil {
		t.Errorf("member of an array: %s", v)
	}
}
