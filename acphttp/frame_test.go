package acphttp

import (
	"bytes"
	"testing"

	"github.com/gobwas/ws"
)

// TestWriteTextHeader checks the headers of text frames against
// ws.WriteHeader's, at each length's boundaries.
func TestWriteTextHeader(t *testing.T) {
	for _, n := range []int{0, 1, 125, 126, 127, 0xffff, 0x10000, 1 << 24} {
		var got, want bytes.Buffer
		writeTextHeader(&got, n)
		if err := ws.WriteHeader(&want, ws.Header{Fin: true, OpCode: ws.OpText, Length: int64(n)}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("the header of %d bytes: % x, want % x", n, got.Bytes(), want.Bytes())
		}
	}
}
