package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/internal/cputime"
)

// A hop of a proxy chain against a direct pipe: a client prompts, the
// agent streams hopUpdates session updates and ends the turn, and the
// client counts them. "direct" joins the two by OS pipes; "hop" puts an
// acpv1.Proxy between them, with no hook, wired as a conductor wires it:
// the client's messages go to the proxy as they are (initialize as
// proxy/initialize), what the proxy wraps in proxy/successor goes to the
// agent unwrapped, and the agent's messages go to the proxy wrapped.

const hopUpdates = 100

// floodAgent answers each prompt with hopUpdates message chunks.
type floodAgent struct {
	genAgent
	conn *acpv1.AgentSideConnection
}

func (a *floodAgent) Prompt(ctx context.Context, p *acpv1.PromptRequest) (*acpv1.PromptResponse, error) {
	n := acpv1.NewSessionNotification(p.SessionID, acpv1.NewSessionUpdateAgentMessageChunk(acpv1.NewContentBlockText("a chunk of the agent's answer, sixty bytes or so")))
	for range hopUpdates {
		if err := a.conn.SessionUpdate(ctx, n); err != nil {
			return nil, err
		}
	}
	return &acpv1.PromptResponse{StopReason: acpv1.StopReasonEndTurn}, nil
}

// hopSetup is a client connected to a flooding agent, directly or through
// a hop.
type hopSetup struct {
	client *acpv1.ClientSideConnection
	count  *counter
	sid    acpv1.SessionID
	closes []io.Closer
}

func (s *hopSetup) close() {
	for _, c := range s.closes {
		c.Close()
	}
}

// osPipe returns an OS pipe, as between processes, recording its ends.
func (s *hopSetup) osPipe(b *testing.B) (*os.File, *os.File) {
	r, w, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	s.closes = append(s.closes, w, r)
	return r, w
}

func newHopSetup(b *testing.B, hop bool) *hopSetup {
	s := &hopSetup{count: newCounter()}
	var clientR, agentR io.Reader
	var clientW, agentW io.Writer
	if !hop {
		agentR, clientW = s.osPipe(b)
		clientR, agentW = s.osPipe(b)
	} else {
		fromClient, cw := s.osPipe(b) // the client writes to the conductor
		cr, toClient := s.osPipe(b)   // the conductor writes to the client
		proxyR, toProxy := s.osPipe(b)
		fromProxy, proxyW := s.osPipe(b)
		ar, toAgent := s.osPipe(b)
		fromAgent, aw := s.osPipe(b)
		clientR, clientW, agentR, agentW = cr, cw, ar, aw
		up := newLockedWriter(toProxy)
		go hopClientLines(fromClient, up)
		go hopProxyLines(fromProxy, newLockedWriter(toClient), newLockedWriter(toAgent))
		go hopAgentLines(fromAgent, up)
		go func() { _ = (&acpv1.Proxy{}).Serve(context.Background(), proxyW, proxyR) }()
	}
	a := &floodAgent{}
	a.conn = acpv1.NewAgentSideConnection(a, agentW, agentR)
	s.client = acpv1.NewClientSideConnection(genClient{s.count}, clientW, clientR)
	s.closes = append([]io.Closer{s.client, a.conn}, s.closes...)
	ctx := context.Background()
	if _, err := s.client.Initialize(ctx, acpv1.NewInitializeRequest(1)); err != nil {
		b.Fatal(err)
	}
	r, err := s.client.NewSession(ctx, acpv1.NewNewSessionRequest("/", []acpv1.MCPServer{}))
	if err != nil {
		b.Fatal(err)
	}
	s.sid = r.SessionID
	return s
}

// lockedWriter is a buffered writer for two goroutines, one at a time.
type lockedWriter struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func newLockedWriter(w io.Writer) *lockedWriter {
	return &lockedWriter{w: bufio.NewWriterSize(w, 64<<10)}
}

// write buffers line, and writes what is buffered when the reader br that
// it comes from has no whole line left: as a conductor writes, in batches,
// without holding a line back while it waits to read.
func (l *lockedWriter) write(line []byte, br *bufio.Reader) {
	l.mu.Lock()
	_, _ = l.w.Write(line)
	if !lineBuffered(br) {
		_ = l.w.Flush()
	}
	l.mu.Unlock()
}

// lineBuffered reports whether br holds a whole line.
func lineBuffered(br *bufio.Reader) bool {
	b, _ := br.Peek(br.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

// hopClientLines hands the client's lines to the proxy, as they are but
// for the first, initialize, which becomes proxy/initialize.
func hopClientLines(r io.Reader, up *lockedWriter) {
	br := bufio.NewReaderSize(r, 64<<10)
	first := true
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return
		}
		if first {
			line = bytes.Replace(line, []byte(`"method":"initialize"`), []byte(`"method":"proxy/initialize"`), 1)
			first = false
		}
		up.write(line, br)
	}
}

// hopProxyLines routes the proxy's lines: what it wraps in proxy/successor
// goes to the agent unwrapped, the rest to the client.
func hopProxyLines(r io.Reader, toClient, toAgent *lockedWriter) {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return
		}
		if !bytes.Contains(line, []byte(`"method":"proxy/successor"`)) {
			toClient.write(line, br)
			if !lineBuffered(br) {
				toAgent.write(nil, br)
			}
			continue
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Params struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			} `json:"params"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			panic(err)
		}
		buf = append(buf[:0], `{"jsonrpc":"2.0",`...)
		if m.ID != nil {
			buf = append(append(append(buf, `"id":`...), m.ID...), ',')
		}
		buf = append(append(append(buf, `"method":"`...), m.Params.Method...), '"')
		if m.Params.Params != nil {
			buf = append(append(buf, `,"params":`...), m.Params.Params...)
		}
		buf = append(buf, "}\n"...)
		toAgent.write(buf, br)
		if !lineBuffered(br) {
			toClient.write(nil, br)
		}
	}
}

// hopAgentLines hands the agent's lines to the proxy: its responses as they
// are (their ids are the proxy's), its notifications wrapped in
// proxy/successor, by their bytes.
func hopAgentLines(r io.Reader, up *lockedWriter) {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	prefix := []byte(`{"jsonrpc":"2.0","method":"`)
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return
		}
		rest, ok := bytes.CutPrefix(line, prefix)
		if !ok {
			up.write(line, br) // a response
			continue
		}
		// "M","params":P}\n -> {"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"M","params":P}}
		buf = append(buf[:0], `{"jsonrpc":"2.0","method":"proxy/successor","params":{"method":"`...)
		buf = append(buf, rest[:len(rest)-1]...)
		buf = append(buf, "}\n"...)
		up.write(buf, br)
	}
}

// BenchmarkHop runs the same prompts, each answered by hopUpdates updates,
// directly and through a hop, in turns of hopBatch prompts, and reports
// each one's updates per second, p99 prompt latency, allocations and CPU
// time (the whole process's, on every core) per update, and the hop's
// throughput as a share of the direct pipe's.
func BenchmarkHop(b *testing.B) {
	const hopBatch = 20
	setups := [2]*hopSetup{newHopSetup(b, false), newHopSetup(b, true)}
	defer setups[0].close()
	defer setups[1].close()
	var (
		elapsed [2]time.Duration
		cpu     [2]time.Duration
		mallocs [2]uint64
		lat     [2][]time.Duration
		ms      runtime.MemStats
	)
	ctx := context.Background()
	prompt := []acpv1.ContentBlock{acpv1.NewContentBlockText("hello")}
	b.ResetTimer()
	for done := 0; done < b.N; done += hopBatch {
		for k, s := range setups {
			runtime.ReadMemStats(&ms)
			before := ms.Mallocs
			start, cpuStart := time.Now(), cputime.Process()
			for range hopBatch {
				s.count.reset()
				t := time.Now()
				r, err := s.client.Prompt(ctx, acpv1.NewPromptRequest(s.sid, prompt))
				if err != nil || r.StopReason != acpv1.StopReasonEndTurn {
					b.Fatal(err, r)
				}
				s.count.waitFor(hopUpdates)
				lat[k] = append(lat[k], time.Since(t))
			}
			elapsed[k] += time.Since(start)
			cpu[k] += cputime.Process() - cpuStart
			runtime.ReadMemStats(&ms)
			mallocs[k] += ms.Mallocs - before
		}
	}
	b.StopTimer()
	names := [2]string{"direct", "hop"}
	var rate [2]float64
	for k := range setups {
		n := len(lat[k])
		rate[k] = float64(n*hopUpdates) / elapsed[k].Seconds()
		slices.Sort(lat[k])
		b.ReportMetric(rate[k], names[k]+"-updates/s")
		b.ReportMetric(float64(lat[k][n*99/100].Microseconds()), names[k]+"-p99-µs/prompt")
		b.ReportMetric(float64(mallocs[k])/float64(n*hopUpdates), names[k]+"-allocs/update")
		b.ReportMetric(float64(cpu[k].Nanoseconds())/float64(n*hopUpdates), names[k]+"-cpu-ns/update")
	}
	b.ReportMetric(rate[1]/rate[0], "hop/direct")
}
