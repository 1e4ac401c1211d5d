package bench

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acpgen/acpgen/bench/workload"
	"github.com/acpgen/acpgen/generated/acpv1"
	acp "github.com/coder/acp-go-sdk"
)

// streamLen is the number of messages in the generated workload.
const streamLen = 2000

type contender struct {
	name   string
	decode func([]byte, workload.Kind) (any, error)
	// encode encodes a value that decode returned; json.Marshal when nil.
	encode func(any) ([]byte, error)
}

// direct decodes into the variant's own struct, as if the tag were known
// beforehand: the floor for dispatch.
func direct(data []byte, kind workload.Kind) (any, error) {
	var v any
	switch kind {
	case workload.AgentMessageChunk:
		v = &struct {
			SessionID acpv1.SessionID                      `json:"sessionId"`
			Update    acpv1.SessionUpdateAgentMessageChunk `json:"update"`
		}{}
	case workload.AgentThoughtChunk:
		v = &struct {
			SessionID acpv1.SessionID                      `json:"sessionId"`
			Update    acpv1.SessionUpdateAgentThoughtChunk `json:"update"`
		}{}
	case workload.ToolCall:
		v = &struct {
			SessionID acpv1.SessionID             `json:"sessionId"`
			Update    acpv1.SessionUpdateToolCall `json:"update"`
		}{}
	case workload.ToolCallUpdate:
		v = &struct {
			SessionID acpv1.SessionID                   `json:"sessionId"`
			Update    acpv1.SessionUpdateToolCallUpdate `json:"update"`
		}{}
	default:
		v = &struct {
			SessionID acpv1.SessionID         `json:"sessionId"`
			Update    acpv1.SessionUpdatePlan `json:"update"`
		}{}
	}
	return v, json.Unmarshal(data, v)
}

// The generated decoder and encoder are called directly ("acpgen"), as
// DecodeMessage does, and through encoding/json ("acpgen-json"), which
// checks and scans the whole input before it calls UnmarshalJSON, and
// checks and copies the output of MarshalJSON.
var contenders = []contender{
	{"acpgen", func(b []byte, _ workload.Kind) (any, error) {
		var n acpv1.SessionNotification
		return &n, n.UnmarshalJSON(b)
	}, func(v any) ([]byte, error) {
		return v.(*acpv1.SessionNotification).MarshalJSON()
	}},
	{"acpgen-json", func(b []byte, _ workload.Kind) (any, error) {
		var n acpv1.SessionNotification
		return &n, json.Unmarshal(b, &n)
	}, nil},
	{"coder", func(b []byte, _ workload.Kind) (any, error) {
		var n acp.SessionNotification
		return &n, json.Unmarshal(b, &n)
	}, nil},
	{"any", func(b []byte, _ workload.Kind) (any, error) {
		var v any
		return &v, json.Unmarshal(b, &v)
	}, nil},
	{"direct", direct, nil},
}

// corpus returns the session/update notifications of the v1 conformance
// corpus (the spec's examples), their params and whole lines, or nil when it
// is absent.
func corpus(tb testing.TB) []workload.Message {
	files, _ := filepath.Glob("../../shared/conformance/v1/*.json")
	var out []workload.Message
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var m struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(data, &m) != nil || m.Method != "session/update" || strings.Contains(f, "_draft_") {
			continue
		}
		var probe struct {
			Update struct {
				SessionUpdate string `json:"sessionUpdate"`
			} `json:"update"`
		}
		if json.Unmarshal(m.Params, &probe) != nil {
			continue
		}
		var buf bytes.Buffer
		if json.Compact(&buf, m.Params) != nil || !decodesEverywhere(buf.Bytes()) {
			continue // a documentation example that does not fit the schema
		}
		params := append([]byte(nil), buf.Bytes()...)
		buf.Reset()
		if err := json.Compact(&buf, data); err != nil {
			tb.Fatal(err)
		}
		out = append(out, workload.Message{Kind: workload.Kind(probe.Update.SessionUpdate), JSON: params, Line: buf.Bytes()})
	}
	return out
}

// decodesEverywhere reports whether every contender but the direct floor
// decodes data.
func decodesEverywhere(data []byte) bool {
	for _, c := range contenders {
		if c.name == "direct" {
			continue
		}
		if _, err := c.decode(data, ""); err != nil {
			return false
		}
	}
	return true
}

func workloads(b *testing.B) map[string][]workload.Message {
	w := map[string][]workload.Message{"stream": workload.Stream(streamLen)}
	if c := corpus(b); len(c) > 0 {
		w["corpus"] = c
	}
	return w
}

// supported reports whether every contender decodes every message of msgs;
// the direct floor only knows the variants of the generated stream.
func supported(msgs []workload.Message) bool {
	for _, m := range msgs {
		switch m.Kind {
		case workload.AgentMessageChunk, workload.AgentThoughtChunk, workload.ToolCall, workload.ToolCallUpdate, workload.Plan:
		default:
			return false
		}
	}
	return true
}

func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"stream", "corpus"} {
		msgs := workloads(b)[name]
		if msgs == nil {
			continue
		}
		for _, c := range contenders {
			if c.name == "direct" && !supported(msgs) {
				continue
			}
			b.Run(name+"/"+c.name, func(b *testing.B) {
				b.SetBytes(int64(workload.Bytes(msgs) / len(msgs)))
				run(b, func(i int) {
					m := msgs[i%len(msgs)]
					if _, err := c.decode(m.JSON, m.Kind); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, name := range []string{"stream", "corpus"} {
		msgs := workloads(b)[name]
		if msgs == nil {
			continue
		}
		for _, c := range contenders {
			if c.name == "direct" && !supported(msgs) {
				continue
			}
			encode := c.encode
			if encode == nil {
				encode = json.Marshal
			}
			values := make([]any, len(msgs))
			for i, m := range msgs {
				v, err := c.decode(m.JSON, m.Kind)
				if err != nil {
					b.Fatal(err)
				}
				values[i] = v
			}
			b.Run(name+"/"+c.name, func(b *testing.B) {
				b.SetBytes(int64(workload.Bytes(msgs) / len(msgs)))
				run(b, func(i int) {
					if _, err := encode(values[i%len(values)]); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

// BenchmarkFallback decodes message chunks whose tag acpgen does not know,
// against the same chunks with their known tag.
func BenchmarkFallback(b *testing.B) {
	var known, unknown [][]byte
	for _, m := range workload.Stream(streamLen) {
		if m.Kind == workload.AgentMessageChunk {
			known = append(known, m.JSON)
			unknown = append(unknown, bytes.Replace(m.JSON, []byte(`"agent_message_chunk"`), []byte(`"_acme_message_chunk"`), 1))
		}
	}
	for _, set := range []struct {
		name string
		msgs [][]byte
	}{{"known", known}, {"unknown", unknown}} {
		b.Run(set.name, func(b *testing.B) {
			b.SetBytes(int64(len(set.msgs[0])))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var n acpv1.SessionNotification
				if err := n.UnmarshalJSON(set.msgs[i%len(set.msgs)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDispatch decodes the update objects of the stream as the union
// SessionUpdate, and as the variant each one is, known beforehand: the cost
// of dispatch on the tag.
func BenchmarkDispatch(b *testing.B) {
	var updates [][]byte
	var kinds []workload.Kind
	for _, m := range workload.Stream(streamLen) {
		var p struct {
			Update json.RawMessage `json:"update"`
		}
		if err := json.Unmarshal(m.JSON, &p); err != nil {
			b.Fatal(err)
		}
		updates = append(updates, p.Update)
		kinds = append(kinds, m.Kind)
	}
	size := int64(workload.Bytes(workload.Stream(streamLen)) / streamLen)
	b.Run("union", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var u acpv1.SessionUpdate
			if err := u.UnmarshalJSON(updates[i%len(updates)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("known", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var v json.Unmarshaler
			switch kinds[i%len(kinds)] {
			case workload.AgentMessageChunk:
				v = new(acpv1.SessionUpdateAgentMessageChunk)
			case workload.AgentThoughtChunk:
				v = new(acpv1.SessionUpdateAgentThoughtChunk)
			case workload.ToolCall:
				v = new(acpv1.SessionUpdateToolCall)
			case workload.ToolCallUpdate:
				v = new(acpv1.SessionUpdateToolCallUpdate)
			default:
				v = new(acpv1.SessionUpdatePlan)
			}
			if err := v.UnmarshalJSON(updates[i%len(updates)]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkTagOrder decodes the stream as ACP implementations write it,
// discriminators first, and with every object's members sorted, as
// encoding/json writes a map: a tag that comes later costs a second pass
// over its object.
func BenchmarkTagOrder(b *testing.B) {
	first := workload.Stream(streamLen)
	for _, set := range []struct {
		name string
		msgs []workload.Message
	}{{"tag-first", first}, {"sorted-keys", workload.SortedKeys(first)}} {
		b.Run(set.name, func(b *testing.B) {
			b.SetBytes(int64(workload.Bytes(set.msgs) / len(set.msgs)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var n acpv1.SessionNotification
				if err := n.UnmarshalJSON(set.msgs[i%len(set.msgs)].JSON); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
