package acpotel

import (
	"encoding/json"
	"reflect"
	"sync"
)

// metaCarrier is the propagation.TextMapCarrier of a call's _meta: the
// trace context keys are root keys of it, with string values.
type metaCarrier struct{ call Call }

// propagated are the keys that W3C trace context and baggage use.
var propagated = []string{"traceparent", "tracestate", "baggage"}

// Get returns the string value of key in _meta, or "".
func (c metaCarrier) Get(key string) string {
	raw := c.call.Meta(key)
	if raw == nil {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// Set sets key in _meta to value, unless the caller has set it already:
// a value the caller set is never overwritten.
func (c metaCarrier) Set(key, value string) {
	if c.call.Meta(key) != nil {
		return
	}
	raw, err := json.Marshal(value)
	if err == nil {
		c.call.SetMeta(key, raw)
	}
}

// Keys returns the trace context keys that _meta holds.
func (c metaCarrier) Keys() []string {
	var keys []string
	for _, k := range propagated {
		if c.call.Meta(k) != nil {
			keys = append(keys, k)
		}
	}
	return keys
}

// sessionFields caches the index of the SessionID field of each params
// type; -1 when it has none.
var sessionFields sync.Map // reflect.Type -> int

// sessionOf returns the session id of params, a pointer to a params
// struct with a string field SessionID, or "".
func sessionOf(params any) string {
	v := reflect.ValueOf(params)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return ""
	}
	i, ok := sessionFields.Load(v.Type())
	if !ok {
		i = -1
		if f, found := v.Type().Elem().FieldByName("SessionID"); found && len(f.Index) == 1 && f.Type.Kind() == reflect.String {
			i = f.Index[0]
		}
		sessionFields.Store(v.Type(), i)
	}
	if i.(int) < 0 {
		return ""
	}
	return v.Elem().Field(i.(int)).String()
}
