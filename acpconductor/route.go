package acpconductor

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"
)

// JSON-RPC error codes the conductor answers with.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeNoMethod       = -32601
	codeInternal       = -32603
)

// read reads p's messages, one per line, and routes them until p's
// output ends. A line is routed from the reader's buffer (route copies
// what it keeps), and while whole lines wait in the buffer the messages
// routed gather in the outboxes, which are written when the reader is
// about to read again: a system call and a wake-up of each writer for
// many messages, none held back while the reader waits.
func (c *chain) read(p *peer, r interface{ Read([]byte) (int, error) }) {
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte // a line longer than br's buffer, gathered
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, line...)
			continue
		}
		if long != nil {
			line, long = append(long, line...), nil
		}
		p.batching = lineBuffered(br)
		if line = bytes.TrimRight(line, "\r\n"); len(bytes.TrimSpace(line)) > 0 {
			if p.logIn != nil {
				p.logIn(line)
			}
			c.route(p, line)
		}
		if !p.batching {
			p.kick()
		}
		if err != nil {
			c.readEnded(p)
			return
		}
	}
}

// lineBuffered reports whether br holds a whole line.
func lineBuffered(br *bufio.Reader) bool {
	b, _ := br.Peek(br.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

// add queues the line appendLine appends for o's writer, waking it now,
// or, while from's reader routes the lines it has buffered, when that
// reader is about to read again (from may be nil).
func (from *peer) add(o *outbox, appendLine func([]byte) []byte) {
	if from == nil || !from.batching {
		o.add(true, appendLine)
		return
	}
	if o.add(false, appendLine) && !slices.Contains(from.touched, o) {
		from.touched = append(from.touched, o)
	}
}

// kick wakes the writers of the outboxes that the lines p's reader routed
// went to.
func (p *peer) kick() {
	for i, o := range p.touched {
		o.kick()
		p.touched[i] = nil
	}
	p.touched = p.touched[:0]
}

// readEnded ends the chain: the peer upstream ended its messages, or a
// component ended.
func (c *chain) readEnded(p *peer) {
	if p.proc == nil {
		c.ended <- nil
		return
	}
	if c.closing.Load() {
		return
	}
	select {
	case <-p.proc.Exited():
	case <-time.After(time.Second):
	}
	if c.closing.Load() {
		return
	}
	err := &ComponentError{Name: p.name, Pid: p.proc.Pid(), State: p.proc.State(), Stderr: p.proc.StderrTail()}
	c.fail(err)
	c.ended <- err
}

// fail answers every request of the peer upstream still in the chain with
// an error that says why the chain ended.
func (c *chain) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	up := c.peers[0]
	for _, p := range c.peers[1:] {
		for n, o := range p.pending {
			if o.from == up {
				up.out.put(errorResponse(o.id, codeInternal, "the chain ended: "+err.Error()))
			}
			delete(p.pending, n)
		}
	}
}

// stop ends every component, in parallel, and writes what is left for
// the peer upstream.
func (c *chain) stop() {
	c.closing.Store(true)
	if c.mcp != nil {
		c.mcp.close()
	}
	var wg sync.WaitGroup
	for _, p := range c.peers[1:] {
		p.out.close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.proc.Close()
			<-p.out.done
		}()
	}
	wg.Wait()
	up := c.peers[0]
	up.out.close()
	select {
	case <-up.out.done:
	case <-time.After(5 * time.Second):
	}
}

// route sends the message line that p wrote where it goes.
func (c *chain) route(p *peer, line []byte) {
	var mv message
	m := &mv
	if err := m.read(line); err != nil {
		c.bad(p, line, err)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	last := len(c.peers) - 1
	switch {
	case m.isResponse():
		c.answer(p, m)
	case m.name == "$/cancel_request":
		c.cancel(p, m, m.params.start, m.paramsRaw())
	case m.name == "proxy/successor" && (p.index > 0 || c.opts.Proxy):
		method, params, err := unwrap(m)
		if err != nil {
			c.refuse(p, m, codeInvalidRequest, err.Error())
			return
		}
		if methodName(method) == "$/cancel_request" && !m.isRequest() {
			c.cancel(p, m, -1, params)
			return
		}
		switch {
		case p.index == 0: // from the successor of the chain, to the last proxy
			c.deliver(p, m, last, true, method, params, false)
		case p.index < last:
			c.deliver(p, m, p.index+1, false, method, params, false)
		case c.opts.Proxy: // from the last proxy, to the successor of the chain
			c.deliver(p, m, 0, true, method, params, false)
		default:
			c.refuse(p, m, codeNoMethod, "the agent has no successor: proxy/successor is for proxies")
		}
	case p.index == 0:
		c.deliver(p, m, 1, false, m.methodRaw(), m.paramsRaw(), true)
	default:
		c.deliver(p, m, p.index-1, p.index > 1, m.methodRaw(), m.paramsRaw(), true)
	}
}

// bad reports a line that is not a JSON-RPC message: to the peer upstream
// as JSON-RPC asks, and on the standard error for a component.
func (c *chain) bad(p *peer, line []byte, err error) {
	if p.index == 0 {
		code := codeInvalidRequest
		if !jsonValid(line) {
			code = codeParse
		}
		p.out.put(errorResponse([]byte("null"), code, "not a JSON-RPC message: "+err.Error()))
		return
	}
	fmt.Fprintf(c.opts.Stderr, "acpconductor: %s wrote a line that is not a JSON-RPC message (%v): dropped\n", p.name, err)
}

// refuse answers a request of p with an error of the conductor's own.
func (c *chain) refuse(p *peer, m *message, code int, text string) {
	if m.isRequest() {
		p.out.put(errorResponse(m.idRaw(), code, text))
	}
}

// deliver sends the request or notification m of from, as method and
// params, to the peer of index to: wrapped in proxy/successor, or plain —
// then, when asIs, the bytes of m with only its id (and an initialize's
// method, and the params the MCP bridge adapts) changed.
func (c *chain) deliver(from *peer, m *message, to int, wrapped bool, method, params []byte, asIs bool) {
	dst := c.peers[to]
	toAgent := c.mcp != nil && to == len(c.peers)-1
	var name string
	if to > 0 {
		name = methodName(method)
	}
	if toAgent && !m.isRequest() && name == "mcp/message" && c.mcp.note(params) {
		return
	}
	var id []byte
	if m.isRequest() {
		dst.nextID++
		n := dst.nextID
		orig := bytes.Clone(m.idRaw())
		dst.pending[n] = origin{from: from, id: orig}
		from.sent[string(orig)] = target{to: dst, id: n}
		id = strconv.AppendInt(nil, n, 10)
		if toAgent && name == "initialize" {
			c.mcp.initID = n
		}
	}
	adapted := false
	if toAgent && m.isRequest() {
		params, adapted = c.mcp.adapt(name, params)
	}
	if wrapped {
		from.add(dst.out, func(b []byte) []byte { return appendWrap(b, id, method, params) })
		return
	}
	renamed := false
	if name == "initialize" || name == "proxy/initialize" {
		if want := c.initializeOf(to); name != want {
			method, renamed = []byte(`"`+want+`"`), true
		}
	}
	if !asIs {
		from.add(dst.out, func(b []byte) []byte { return appendBuild(b, id, method, params) })
		return
	}
	var spans []span
	var values [][]byte
	if id != nil {
		spans, values = append(spans, m.id), append(values, id)
	}
	if renamed {
		spans, values = append(spans, m.method), append(values, method)
	}
	if adapted {
		spans, values = append(spans, m.params), append(values, params)
	}
	sortSpans(spans, values)
	from.add(dst.out, func(b []byte) []byte { return appendSplice(b, m.raw, spans, values) })
}

// sortSpans sorts spans, and values with them, by where they start.
func sortSpans(spans []span, values [][]byte) {
	for i := 1; i < len(spans); i++ {
		for j := i; j > 0 && spans[j].start < spans[j-1].start; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
			values[j], values[j-1] = values[j-1], values[j]
		}
	}
}

// initializeOf is the method that initializes the component of index i:
// proxy/initialize for a proxy, initialize for the agent.
func (c *chain) initializeOf(i int) string {
	if i < len(c.peers)-1 || c.opts.Proxy {
		return "proxy/initialize"
	}
	return "initialize"
}

// answer sends p's answer to the request it stands for, with the id of
// that request.
func (c *chain) answer(p *peer, m *message) {
	n, err := strconv.ParseInt(string(m.idRaw()), 10, 64)
	o, ok := p.pending[n]
	if err != nil || !ok {
		fmt.Fprintf(c.opts.Stderr, "acpconductor: %s answered id %s, which the conductor did not send it: dropped\n", p.name, m.idRaw())
		return
	}
	delete(p.pending, n)
	if o.reply != nil {
		// The line is the reader's buffer: the bridge gets a copy.
		r := *m
		r.raw = bytes.Clone(m.raw)
		o.reply <- &r
		return
	}
	delete(o.from.sent, string(o.id))
	spans, values := []span{m.id}, [][]byte{o.id}
	if c.mcp != nil && p.index == len(c.peers)-1 && n == c.mcp.initID && m.result.ok() {
		c.mcp.initialized(m.get(m.result))
		if result, changed := c.mcp.offer(m.get(m.result)); changed {
			spans, values = append(spans, m.result), append(values, result)
			sortSpans(spans, values)
		}
	}
	p.add(o.from.out, func(b []byte) []byte { return appendSplice(b, m.raw, spans, values) })
}

// cancel forwards p's $/cancel_request to where the request it names
// went, with that request's id there. at is where params lie in m, or -1
// when they came in a proxy/successor envelope (the cancellation is then
// written anew). A request already answered is not cancelled.
func (c *chain) cancel(p *peer, m *message, at int, params []byte) {
	id, s, ok := cancelTarget(params)
	if !ok {
		return
	}
	t, found := p.sent[string(id)]
	if !found {
		return
	}
	n := strconv.AppendInt(nil, t.id, 10)
	if at < 0 {
		t.to.out.put(build(nil, []byte(`"$/cancel_request"`), splice(params, []span{s}, [][]byte{n})))
		return
	}
	t.to.out.put(splice(m.raw, []span{{at + s.start, at + s.end}}, [][]byte{n}))
}
