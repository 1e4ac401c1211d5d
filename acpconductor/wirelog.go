package acpconductor

import (
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// wireLog writes the messages of every hop of the chain as JSON lines,
// one Write each, in the records of the generated connections' wire logs
// (acpv1.WithWireLog) with the hop's name added:
//
//	{"time":"…","conn":1,"hop":"proxy 1 (./proxy)","dir":"in","bytes":58,"msg":{…}}
//
// dir "in" is what the conductor read from the hop, "out" what it wrote
// to it.
type wireLog struct {
	mu sync.Mutex
	w  io.Writer
}

var wireConns atomic.Int64

// hop returns the logging functions of one hop, for what the conductor
// reads from it and what it writes to it.
func (l *wireLog) hop(name string) (in, out func([]byte)) {
	if l == nil {
		return nil, nil
	}
	conn := strconv.FormatInt(wireConns.Add(1), 10)
	quoted, _ := json.Marshal(name)
	return l.record(conn, quoted, "in"), l.record(conn, quoted, "out")
}

func (l *wireLog) record(conn string, quoted []byte, dir string) func([]byte) {
	return func(line []byte) {
		b := make([]byte, 0, 96+len(line))
		b = append(b, `{"time":"`...)
		b = time.Now().UTC().AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","conn":`...)
		b = append(b, conn...)
		b = append(b, `,"hop":`...)
		b = append(b, quoted...)
		b = append(b, `,"dir":"`...)
		b = append(b, dir...)
		b = append(b, `","bytes":`...)
		b = strconv.AppendInt(b, int64(len(line)), 10)
		if json.Valid(line) {
			b = append(b, `,"msg":`...)
			b = append(b, line...)
		} else {
			text, _ := json.Marshal(string(line))
			b = append(b, `,"text":`...)
			b = append(b, text...)
		}
		b = append(b, "}\n"...)
		l.mu.Lock()
		l.w.Write(b)
		l.mu.Unlock()
	}
}
