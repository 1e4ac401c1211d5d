package bench

import (
	"bufio"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
)

// The footprint of idle connections: idleConns agent connections over
// in-memory pipes, each driven by a peer that writes initialize and
// session/new, reads the two answers, and then sends nothing, as a client
// does between prompts. What they hold once idle is what a server that
// keeps many connections open pays for each.

const idleConns = 1000

// footprint is what the process holds: goroutines, heap and stack bytes,
// after a collection.
type footprint struct {
	goroutines  int
	heap, stack uint64
}

func measure() footprint {
	for range 4 { // goroutine stacks shrink by half a collection
		runtime.GC()
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return footprint{runtime.NumGoroutine(), m.HeapAlloc, m.StackInuse}
}

// idleAgent opens an agent connection over two pipes, initializes it and
// opens a session; close ends it.
func idleAgent(b *testing.B) (close func()) {
	agentIn, toAgent := io.Pipe()
	fromAgent, agentOut := io.Pipe()
	conn := acpv1.NewAgentSideConnection(genAgent{}, agentOut, agentIn)
	go func() {
		io.WriteString(toAgent, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`+"\n"+
			`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`+"\n")
	}()
	r := bufio.NewReader(fromAgent)
	for i := 0; i < 2; i++ {
		if _, err := r.ReadBytes('\n'); err != nil {
			b.Fatal(err)
		}
	}
	return func() {
		toAgent.Close()
		conn.Close()
		agentOut.Close()
	}
}

// BenchmarkConnIdle reports, for each idle agent connection, the
// goroutines, the heap bytes and the goroutine stack bytes it holds; the
// heap counts the two pipes, whose own share is reported apart
// (pipe-B/conn). One op opens idleConns connections.
func BenchmarkConnIdle(b *testing.B) {
	var pipes, conns footprint
	for i := 0; i < b.N; i++ {
		before := measure()
		held := make([]*io.PipeReader, 0, 4*idleConns)
		for range idleConns {
			r1, w1 := io.Pipe()
			r2, w2 := io.Pipe()
			held = append(held, r1, r2)
			_, _ = w1, w2
		}
		after := measure()
		runtime.KeepAlive(held)
		pipes = footprint{heap: after.heap - before.heap}
		held = nil

		before = measure()
		closers := make([]func(), idleConns)
		for j := range closers {
			closers[j] = idleAgent(b)
		}
		// Idle request workers end after a while without requests.
		time.Sleep(300 * time.Millisecond)
		after = measure()
		conns = footprint{after.goroutines - before.goroutines, after.heap - before.heap, after.stack - before.stack}
		for _, c := range closers {
			c()
		}
	}
	n := float64(idleConns)
	b.ReportMetric(float64(conns.goroutines)/n, "goroutines/conn")
	b.ReportMetric(float64(conns.heap)/n, "heap-B/conn")
	b.ReportMetric(float64(pipes.heap)/n, "pipe-B/conn")
	b.ReportMetric(float64(conns.stack)/n, "stack-B/conn")
}
