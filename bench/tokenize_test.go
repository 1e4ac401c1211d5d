package bench

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/acpgen/acpgen/bench/workload"
	"github.com/go-json-experiment/json/jsontext"
)

// BenchmarkTokenize measures the floor of a decoder generated on top of a
// tokenizer: reading every token of each message and nothing else. The
// standard library's tokenizer (json.Decoder.Token) against jsontext, the
// candidate dependency for generated decoders, on the same stream.
func BenchmarkTokenize(b *testing.B) {
	msgs := workload.Stream(streamLen)
	size := int64(workload.Bytes(msgs) / len(msgs))
	b.Run("encoding-json-token", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			dec := json.NewDecoder(bytes.NewReader(msgs[i%len(msgs)].JSON))
			for {
				if _, err := dec.Token(); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("jsontext", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		dec := jsontext.NewDecoder(bytes.NewReader(nil))
		r := bytes.NewReader(nil)
		for i := 0; i < b.N; i++ {
			r.Reset(msgs[i%len(msgs)].JSON)
			dec.Reset(r)
			for {
				if _, err := dec.ReadToken(); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
