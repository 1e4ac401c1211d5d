package bench

import (
	"encoding/json"
	"testing"

	"github.com/acpgen/acpgen/bench/workload"
	"github.com/acpgen/acpgen/generated/acpv1"
	acp "github.com/coder/acp-go-sdk"
)

// coderMessage is the envelope coder/acp-go-sdk's connection reads each
// line into, with encoding/json, before it decodes the params.
type coderMessage struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      *json.RawMessage  `json:"id,omitempty"`
	Method  string            `json:"method,omitempty"`
	Params  json.RawMessage   `json:"params,omitempty"`
	Result  json.RawMessage   `json:"result,omitempty"`
	Error   *acp.RequestError `json:"error,omitempty"`
}

// The message contenders decode a whole JSON-RPC line to typed params:
// acpgen with DecodeMessage (one pass over the line); coder as its
// connection does, the envelope with encoding/json, then the params with
// encoding/json and the generated Validate its handlers call; and
// encoding/json into any, the floor of a generic decode.
var messageContenders = []struct {
	name   string
	decode func([]byte) (any, error)
}{
	{"acpgen", func(line []byte) (any, error) {
		return acpv1.DecodeMessage(line, "")
	}},
	{"coder", func(line []byte) (any, error) {
		var msg coderMessage
		if err := json.Unmarshal(line, &msg); err != nil {
			return nil, err
		}
		var p acp.SessionNotification
		if err := json.Unmarshal(msg.Params, &p); err != nil {
			return nil, err
		}
		return &p, p.Validate()
	}},
	{"any", func(line []byte) (any, error) {
		var v any
		return &v, json.Unmarshal(line, &v)
	}},
}

// BenchmarkMessage decodes session/update notifications, each a whole
// JSON-RPC line, into typed params.
func BenchmarkMessage(b *testing.B) {
	for _, name := range []string{"stream", "corpus"} {
		msgs := workloads(b)[name]
		if msgs == nil {
			continue
		}
		for _, c := range messageContenders {
			b.Run(name+"/"+c.name, func(b *testing.B) {
				b.SetBytes(int64(workload.LineBytes(msgs) / len(msgs)))
				run(b, func(i int) {
					if _, err := c.decode(msgs[i%len(msgs)].Line); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

// TestMessageContenders checks that every contender decodes every line,
// and that DecodeMessage gives the typed params that UnmarshalJSON gives.
func TestMessageContenders(t *testing.T) {
	for name, msgs := range map[string][]workload.Message{"stream": workload.Stream(300), "corpus": corpus(t)} {
		for _, m := range msgs {
			for _, c := range messageContenders {
				if _, err := c.decode(m.Line); err != nil {
					t.Fatalf("%s: %s: %v: %s", name, c.name, err, m.Line)
				}
			}
			msg, err := acpv1.DecodeMessage(m.Line, "")
			if err != nil {
				t.Fatal(err)
			}
			p, ok := msg.Params.(*acpv1.SessionNotification)
			if !ok {
				t.Fatalf("%s: params %T", m.Line, msg.Params)
			}
			var want acpv1.SessionNotification
			if err := want.UnmarshalJSON(m.JSON); err != nil {
				t.Fatal(err)
			}
			got, _ := p.MarshalJSON()
			exp, _ := want.MarshalJSON()
			if string(got) != string(exp) {
				t.Errorf("DecodeMessage params %s, UnmarshalJSON %s", got, exp)
			}
		}
	}
}
