//go:build ignore

package convert

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/acpgen/acpgen/generated/acpv1"
	"github.com/acpgen/acpgen/generated/acpv2"
)

// Offer is what a client that speaks both versions offers an agent.
type Offer struct {
	// V2 is the v2 initialize, offered first; its protocolVersion is set
	// to 2.
	V2 *acpv2.InitializeRequest
	// V2Client serves the agent's calls when the agent speaks v2.
	V2Client acpv2.Client
	// V1 is the v1 initialize sent when the agent speaks only v1; its
	// protocolVersion is set to 1.
	V1 *acpv1.InitializeRequest
	// V1Client serves the agent's calls when the agent speaks only v1.
	V1Client acpv1.Client
}

// Negotiated is the connection Negotiate ends with: V2 and V2Result when
// the agent speaks v2, V1 and V1Result when it continues on v1.
type Negotiated struct {
	Version  int // 1 or 2
	V1       *acpv1.ClientSideConnection
	V1Result *acpv1.InitializeResponse
	V2       *acpv2.ClientSideConnection
	V2Result *acpv2.InitializeResponse
}

// Done is closed when the negotiated connection has ended.
func (n *Negotiated) Done() <-chan struct{} {
	if n.V2 != nil {
		return n.V2.Done()
	}
	return n.V1.Done()
}

// Negotiate offers the agent at the other end of w and r protocol version 2
// and continues on version 1 when the agent answers the v2 initialize with
// protocol version 1 or with an error, as a v1 agent does: it then sends the
// v1 initialize, which v1 agents take at any time, and starts the v1
// connection. Either way it returns the generated ClientSideConnection of
// the version the agent speaks, with the agent's initialize result.
//
// Limits: the v2 initialize is written by Negotiate itself with id 0, before
// either connection exists, and the connection ids start at 1; messages the
// agent sends before it answers are handed to the connection picked. An
// agent that takes the v2 offer for something else (answers a version other
// than 1 or 2) is an error, and so is a v1 initialize that fails. Going
// down to v1 costs a second round trip, and the agent has seen the v2
// initialize first. When ctx ends before the agent answers, Negotiate
// returns ctx.Err(); the read it was waiting on ends when r does, so close
// the transport then.
func Negotiate(ctx context.Context, w io.Writer, r io.Reader, offer Offer) (*Negotiated, error) {
	if offer.V2 == nil || offer.V2Client == nil || offer.V1 == nil || offer.V1Client == nil {
		return nil, errors.New("convert: an offer needs both versions' initialize and client")
	}
	v2 := *offer.V2
	v2.ProtocolVersion = 2
	params, err := v2.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("convert: the v2 initialize: %w", err)
	}
	line := append(append([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":`), params...), "}\n"...)
	if _, err := w.Write(line); err != nil {
		return nil, fmt.Errorf("convert: writing: %w", err)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	answer, before, err := awaitAnswer(ctx, br)
	if err != nil {
		return nil, err
	}
	rest := io.MultiReader(bytes.NewReader(before), br)
	version, result, rpcErr := readAnswer(answer)
	switch {
	case rpcErr == nil && version == 2:
		var res acpv2.InitializeResponse
		if err := res.UnmarshalJSON(result); err != nil {
			return nil, fmt.Errorf("convert: the agent's v2 initialize result: %w", err)
		}
		conn := acpv2.NewClientSideConnection(offer.V2Client, w, rest)
		return &Negotiated{Version: 2, V2: conn, V2Result: &res}, nil
	case rpcErr == nil && version != 1:
		return nil, fmt.Errorf("convert: the agent answered protocol version %d to a v2 initialize", version)
	}
	conn := acpv1.NewClientSideConnection(offer.V1Client, w, rest)
	v1 := *offer.V1
	v1.ProtocolVersion = 1
	res, err := conn.Initialize(ctx, &v1)
	if err != nil {
		if rpcErr != nil {
			return nil, fmt.Errorf("convert: the agent refused v2 (%s) and v1: %w", rpcErr, err)
		}
		return nil, fmt.Errorf("convert: the v1 initialize: %w", err)
	}
	return &Negotiated{Version: 1, V1: conn, V1Result: res}, nil
}

// awaitAnswer reads br until the answer to the request of id 0, returning
// it and the lines read before it. It returns at once when ctx ends,
// leaving the reading goroutine to end with the next line or the end of
// the input.
func awaitAnswer(ctx context.Context, br *bufio.Reader) (answer, before []byte, err error) {
	type read struct {
		answer, before []byte
		err            error
	}
	done := make(chan read, 1)
	go func() {
		var before []byte
		for {
			line, err := br.ReadBytes('\n')
			if isAnswer(line) {
				done <- read{answer: line, before: before}
				return
			}
			before = append(before, line...)
			if err != nil {
				if err == io.EOF {
					err = errors.New("the agent closed the connection before it answered initialize")
				}
				done <- read{err: fmt.Errorf("convert: %w", err)}
				return
			}
		}
	}()
	select {
	case r := <-done:
		return r.answer, r.before, r.err
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
}

// isAnswer reports whether line is a response to the request of id 0.
func isAnswer(line []byte) bool {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
	}
	return json.Unmarshal(line, &m) == nil && m.Method == nil && string(m.ID) == "0"
}

// readAnswer reads the answer to the v2 initialize: the protocol version
// and the result, or the error.
func readAnswer(line []byte) (version int, result json.RawMessage, rpcErr *acpv1.Error) {
	var m struct {
		Result json.RawMessage `json:"result"`
		Error  *acpv1.Error    `json:"error"`
	}
	if err := json.Unmarshal(line, &m); err != nil || (m.Error == nil && m.Result == nil) {
		return 0, nil, acpv1.NewInvalidRequestError(map[string]string{"details": "a malformed initialize answer"})
	}
	if m.Error != nil {
		return 0, nil, m.Error
	}
	var v struct {
		ProtocolVersion json.Number `json:"protocolVersion"`
	}
	if json.Unmarshal(m.Result, &v) != nil {
		return 0, m.Result, nil
	}
	n, err := v.ProtocolVersion.Int64()
	if err != nil || n < 0 || n > 0xffff {
		return 0, m.Result, nil
	}
	return int(n), m.Result, nil
}
