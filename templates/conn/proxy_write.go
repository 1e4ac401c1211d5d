//go:build ignore

package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// What a proxy writes to its conductor: each message in one Write, params,
// results and error objects as the bytes received, or as a hook left them.

// writeCall writes a request (id not 0) or notification: to the client
// as it is, to the successor wrapped in the conductor's dialect.
func (p *Proxy) writeCall(toAgent bool, id int64, method string, params []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := append(p.wbuf[:0], `{"jsonrpc":"2.0"`...)
	if id != 0 {
		b = strconv.AppendInt(append(b, `,"id":`...), id, 10)
	}
	if toAgent {
		envelope := proxySuccessor
		if p.thinkwell.Load() {
			envelope = proxySuccessorNotify
			if id != 0 {
				envelope = proxySuccessorRequest
			}
		}
		b = append(append(append(b, `,"method":"`...), envelope...), `","params":{"method":`...)
		b = appendString(b, method)
		if params != nil {
			b = append(append(b, `,"params":`...), params...)
		}
		b = append(b, '}')
	} else {
		b = appendString(append(b, `,"method":`...), method)
		if params != nil {
			b = append(append(b, `,"params":`...), params...)
		}
	}
	p.write(append(b, '}', '\n'))
}

// writeAnswer writes the answer to a request under the id it was received
// with.
func (p *Proxy) writeAnswer(a *proxyAnswer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := append(append(p.wbuf[:0], `{"jsonrpc":"2.0","id":`...), a.id...)
	if a.err != nil {
		b = append(append(b, `,"error":`...), a.err...)
	} else {
		result := a.result
		if result == nil {
			result = []byte("null")
		}
		b = append(append(b, `,"result":`...), result...)
	}
	p.write(append(b, '}', '\n'))
}

// writeError answers the request whose id, as received, is id (null when
// "") with e.
func (p *Proxy) writeError(id string, e *Error) {
	if id == "" {
		id = "null"
	}
	p.writeAnswer(&proxyAnswer{id: id, err: errorJSON(e)})
}

// write writes one message; p.mu is held. While the reader routes lines it
// has already read (p.batching), messages gather in p.wpend and go out in
// one Write when it is about to read again (see flush), or when they reach
// proxyBatchBytes: one system call for many messages under load, none
// held back while the reader waits. A failed write ends nothing here: the
// conductor's end of the stream is gone, and reading ends too.
func (p *Proxy) write(b []byte) {
	p.wbuf = b[:0]
	if p.err != nil {
		return
	}
	if p.batching {
		p.wpend = append(p.wpend, b...)
		if len(p.wpend) < proxyBatchBytes {
			return
		}
		b = p.wpend
	}
	_, err := p.w.Write(b)
	p.wpend = p.wpend[:0]
	if err != nil {
		p.err = fmt.Errorf("%w: writing: %v", ErrConnectionClosed, err)
	}
}

// proxyBatchBytes is how many bytes of messages gather at most before they
// are written.
const proxyBatchBytes = 64 << 10

// flush writes the messages gathered, and ends the batch; p.mu is held.
func (p *Proxy) flush() {
	p.batching = false
	if len(p.wpend) > 0 && p.err == nil {
		if _, err := p.w.Write(p.wpend); err != nil {
			p.err = fmt.Errorf("%w: writing: %v", ErrConnectionClosed, err)
		}
	}
	if cap(p.wpend) > 4*proxyBatchBytes {
		p.wpend = nil
	}
	p.wpend = p.wpend[:0]
}

// CallAgent sends the request method with params (written as JSON; a
// json.RawMessage as it is) to the successor and returns its raw result,
// or its error (an *Error for an error response). Cancelling ctx cancels
// the request.
func (p *Proxy) CallAgent(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return p.call(ctx, true, method, params)
}

// CallClient sends the request method with params to the client, as
// CallAgent does to the successor.
func (p *Proxy) CallClient(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return p.call(ctx, false, method, params)
}

// NotifyAgent sends the notification method with params to the successor.
func (p *Proxy) NotifyAgent(method string, params any) error {
	return p.notify(true, method, params)
}

// NotifyClient sends the notification method with params to the client.
func (p *Proxy) NotifyClient(method string, params any) error {
	return p.notify(false, method, params)
}

func (p *Proxy) notify(toAgent bool, method string, params any) error {
	raw, err := paramsJSON(params)
	if err != nil {
		return err
	}
	p.mu.Lock()
	err = p.err
	p.mu.Unlock()
	if err != nil {
		return err
	}
	p.writeCall(toAgent, 0, method, raw)
	return nil
}

func (p *Proxy) call(ctx context.Context, toAgent bool, method string, params any) (json.RawMessage, error) {
	raw, err := paramsJSON(params)
	if err != nil {
		return nil, err
	}
	reply := make(chan proxyReply, 1)
	p.mu.Lock()
	if p.err != nil || p.pending == nil {
		err := p.err
		p.mu.Unlock()
		if err == nil {
			err = fmt.Errorf("%w: the proxy is not serving", ErrConnectionClosed)
		}
		return nil, err
	}
	p.nextID++
	id := p.nextID
	p.pending[id] = &proxyPending{toAgent: toAgent, reply: reply}
	p.mu.Unlock()
	p.writeCall(toAgent, id, method, raw)
	select {
	case r := <-reply:
		return r.result, r.err
	case <-ctx.Done():
		p.mu.Lock()
		_, waiting := p.pending[id]
		delete(p.pending, id)
		p.mu.Unlock()
		if waiting {
			cancel := append(strconv.AppendInt([]byte(`{"requestId":`), id, 10), '}')
			p.writeCall(toAgent && p.thinkwell.Load(), 0, proxyCancelRequestMethod, cancel)
		}
		return nil, ctx.Err()
	}
}

// paramsJSON writes params as JSON, without escaping HTML: nil stays nil
// (no params), a json.RawMessage is used as it is.
func paramsJSON(params any) ([]byte, error) {
	switch v := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return v, nil
	}
	return appendNoEscape(nil, params)
}

// appendNoEscape appends v as JSON, through its generated encoder if it
// has one, else encoding/json's without escaping HTML.
func appendNoEscape(b []byte, v any) ([]byte, error) {
	if out, ok, err := appendGenerated(b, v); ok {
		return out, err
	}
	var w bytes.Buffer
	enc := json.NewEncoder(&w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return append(b, bytes.TrimRight(w.Bytes(), "\n")...), nil
}
