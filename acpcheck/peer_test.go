package acpcheck

import (
	"io"
	"strings"
	"testing"
	"time"
)

// TestPeerLines: the peer queues each JSON-RPC line, notes each line that
// is not one message or not UTF-8, and bounds its transcript.
func TestPeerLines(t *testing.T) {
	var in strings.Builder
	in.WriteString(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n")
	in.WriteString("log: starting\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"a"} {"jsonrpc":"2.0","method":"b"}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"x","params":{"t":"` + "\xff" + `"}}` + "\n")
	for i := 0; i < 2*maxTranscript; i++ {
		in.WriteString(`{"jsonrpc":"2.0","method":"n"}` + "\n")
	}
	p := newPeer(io.Discard, strings.NewReader(in.String()))
	<-p.done
	framing, bad := p.hygiene()
	if len(framing) != 2 || len(bad) != 1 {
		t.Errorf("framing %q, UTF-8 %q", framing, bad)
	}
	m, err := p.next(time.Now().Add(time.Second), nil)
	if err != nil || string(compactJSON(m.ID)) != "1" {
		t.Fatalf("first message %v %v", m, err)
	}
	if n := len(p.Transcript()); n > maxTranscript+1 {
		t.Errorf("the transcript holds %d lines", n)
	}
}
