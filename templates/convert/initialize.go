//go:build ignore

package convert

import (
	"encoding/json"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// unknownImplementation stands for a missing or malformed v2 info in an
// initialize written for a newer version than the one that serves it.
const unknownImplementation = `{"name":"unknown","version":"unknown"}`

// InitializeForV1 is the Initialize of a version router's route of
// protocol version 1 (acpgen's package acprouter takes it as it is): it
// writes the params of an initialize request as v1 reads them, given the
// params as received and the protocol version the client asked for. Params
// for v1 are checked strictly; v2-shaped params (any version from 2 on) are
// turned into v1 ones as the TypeScript SDK's router turns them: the client
// capabilities v1 has and v2 no longer states (file system, terminal,
// boolean config options) written as absent, the plan operations v2 always
// has, terminal authentication and elicitation as the client stated them,
// and the client info when it is valid.
func InitializeForV1(params []byte, requested int) ([]byte, error) {
	if requested < 2 {
		var p acpv1.InitializeRequest
		if err := p.UnmarshalJSON(params); err != nil {
			return nil, err
		}
		p.ProtocolVersion = 1
		return p.MarshalJSON()
	}
	p, hasInfo, err := newerV2(params)
	if err != nil {
		return nil, err
	}
	var o objects
	object := o.object
	auth := []member{{"terminal", false}}
	caps := []member{
		{"fs", object(member{"readTextFile", false}, member{"writeTextFile", false})},
		{"terminal", false},
		{"session", object(member{"configOptions", object(member{"boolean", object()})})},
		{"plan", object()},
		{"auth", nil}, // filled below
	}
	if c := p.Capabilities; c != nil {
		if c.Auth != nil {
			auth[0].value = c.Auth.Terminal != nil
			if c.Auth.Meta != nil {
				auth = append(auth, member{"_meta", c.Auth.Meta})
			}
		}
		if c.Elicitation != nil {
			caps = append(caps, member{"elicitation", c.Elicitation})
		}
		if c.Meta != nil {
			caps = append(caps, member{"_meta", c.Meta})
		}
	}
	caps[4].value = object(auth...)
	v1 := []member{{"protocolVersion", 1}, {"clientCapabilities", object(caps...)}}
	if hasInfo {
		v1 = append(v1, member{"clientInfo", p.Info})
	}
	if p.Meta != nil {
		v1 = append(v1, member{"_meta", p.Meta})
	}
	out := object(v1...)
	if o.err != nil {
		return nil, o.err
	}
	// The params must read as v1 params.
	var q acpv1.InitializeRequest
	if err := q.UnmarshalJSON(out); err != nil {
		return nil, err
	}
	return out, nil
}

// member is a member of a JSON object written by object.
type member struct {
	name  string
	value any
}

// objects writes JSON objects, keeping the first error.
type objects struct{ err error }

// object writes a JSON object of the members in their order.
func (o *objects) object(members ...member) json.RawMessage {
	b := []byte{'{'}
	for i, m := range members {
		if i > 0 {
			b = append(b, ',')
		}
		name, _ := json.Marshal(m.name)
		value, err := json.Marshal(m.value)
		if err != nil && o.err == nil {
			o.err = err
		}
		b = append(append(append(b, name...), ':'), value...)
	}
	return append(b, '}')
}

// InitializeForV2 is the Initialize of a version router's route of
// protocol version 2: it writes the params of an initialize request as v2
// reads them, given the params as received and the protocol version the
// client asked for. Params for v2 are checked strictly; params of a newer
// version with a missing or malformed info get an unknown implementation.
func InitializeForV2(params []byte, requested int) ([]byte, error) {
	var p acpv2.InitializeRequest
	if requested > 2 {
		q, _, err := newerV2(params)
		if err != nil {
			return nil, err
		}
		p = *q
	} else if err := p.UnmarshalJSON(params); err != nil {
		return nil, err
	}
	p.ProtocolVersion = 2
	return p.MarshalJSON()
}

// newerV2 reads v2-shaped initialize params written for version 2 or newer,
// replacing a missing or malformed info, and says whether the info was
// valid.
func newerV2(params []byte) (*acpv2.InitializeRequest, bool, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(params, &members); err != nil {
		return nil, false, err
	}
	var info acpv2.Implementation
	hasInfo := members["info"] != nil && info.UnmarshalJSON(members["info"]) == nil
	if !hasInfo {
		members["info"] = json.RawMessage(unknownImplementation)
	}
	fixed, err := json.Marshal(members)
	if err != nil {
		return nil, false, err
	}
	var p acpv2.InitializeRequest
	if err := p.UnmarshalJSON(fixed); err != nil {
		return nil, false, err
	}
	return &p, hasInfo, nil
}
