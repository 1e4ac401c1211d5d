package acpv1test

import (
	"testing"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/rpctest"
)

// FuzzDecodeMessage feeds arbitrary lines to DecodeMessage and to a
// RequestTracker: neither may panic, and a message that decodes and
// encodes decodes again from its encoding to the same encoding.
func FuzzDecodeMessage(f *testing.F) {
	rpctest.AddFuzzSeeds(f, "v1")
	f.Fuzz(func(t *testing.T, line []byte) {
		rpctest.FuzzDecodeMessage(t, testCodec, line, acpv1.DecodeMessage)
	})
}
