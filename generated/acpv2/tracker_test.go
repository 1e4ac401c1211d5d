package acpv2

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
)

func TestRequestTrackerTypesResults(t *testing.T) {
	var tr RequestTracker
	num, str := RequestID{Value: RequestIDNumber(1)}, RequestID{Value: RequestIDStr("1")}
	if err := tr.Track(num, MethodSessionNew); err != nil {
		t.Fatal(err)
	}
	if err := tr.Track(str, MethodSessionPrompt); err != nil {
		t.Fatal(err)
	}
	if err := tr.Track(num, MethodInitialize); err == nil {
		t.Error("an id awaiting its response was tracked again")
	}
	// The string id "1" answers the prompt, the number 1 the new session.
	m, err := tr.Decode([]byte(`{"jsonrpc":"2.0","id":"1","result":{"messageId":"m"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := m.Result.(*PromptResponse); !ok || r.MessageID != "m" {
		t.Errorf(`result for id "1" = %#v, want the prompt response`, m.Result)
	}
	m, err = tr.Decode([]byte(`{"result":{"sessionId":"s"},"jsonrpc":"2.0","id":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := m.Result.(*NewSessionResponse); !ok || r.SessionID != "s" {
		t.Errorf("result for id 1 = %#v, want the new session response", m.Result)
	}
	if n := tr.Len(); n != 0 {
		t.Errorf("%d requests still tracked after their responses", n)
	}
	// Now unknown: a second response to id 1 keeps its result raw.
	m, err = tr.Decode([]byte(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if raw, ok := m.Result.(json.RawMessage); !ok || string(raw) != `{"sessionId":"s"}` {
		t.Errorf("result for an unknown id = %#v, want raw JSON", m.Result)
	}
}

func TestRequestTrackerErrorsAndForget(t *testing.T) {
	var tr RequestTracker
	for i := 1; i <= 3; i++ {
		if err := tr.Track(RequestID{Value: RequestIDNumber(i)}, MethodSessionNew); err != nil {
			t.Fatal(err)
		}
	}
	m, err := tr.Decode([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.Error == nil || m.Error.Code != ErrorCodeInternalError || !m.IsResponse() {
		t.Errorf("error response decoded to %+v", m)
	}
	_, err = tr.Decode([]byte(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":7}}`))
	var me *MessageError
	if !errors.As(err, &me) || me.Method != MethodSessionNew || me.ID == nil || encodeID(t, *me.ID) != "2" {
		t.Errorf("a result that does not fit: error %v (%+v), want a *MessageError for id 2 of session/new", err, me)
	}
	if !tr.Forget(RequestID{Value: RequestIDNumber(3)}) || tr.Forget(RequestID{Value: RequestIDNumber(3)}) {
		t.Error("Forget did not report the tracked request once")
	}
	if n := tr.Len(); n != 0 {
		t.Errorf("%d requests still tracked", n)
	}
	// Requests and notifications decode as DecodeMessage decodes them.
	m, err = tr.Decode([]byte(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Params.(*CancelSessionNotification); !ok {
		t.Errorf("notification params = %#v", m.Params)
	}
}

// TestRequestTrackerConcurrent tracks and answers requests from many
// goroutines at once; run with -race.
func TestRequestTrackerConcurrent(t *testing.T) {
	var tr RequestTracker
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			id, line := RequestID{Value: RequestIDNumber(i)}, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"sessionId":"s%d"}}`, i, i)
			if i%2 == 1 {
				id, line = RequestID{Value: RequestIDStr(fmt.Sprint(i))}, fmt.Sprintf(`{"jsonrpc":"2.0","id":"%d","result":{"messageId":"m"}}`, i)
			}
			method := MethodSessionNew
			if i%2 == 1 {
				method = MethodSessionPrompt
			}
			if err := tr.Track(id, method); err != nil {
				errs <- err
				return
			}
			_ = tr.Len()
			m, err := tr.Decode([]byte(line))
			if err != nil {
				errs <- err
				return
			}
			switch r := m.Result.(type) {
			case *NewSessionResponse:
				if method != MethodSessionNew || string(r.SessionID) != fmt.Sprint("s", i) {
					errs <- fmt.Errorf("id %d: result %+v", i, r)
				}
			case *PromptResponse:
				if method != MethodSessionPrompt {
					errs <- fmt.Errorf("id %d: result %+v", i, r)
				}
			default:
				errs <- fmt.Errorf("id %d: result %#v not typed", i, m.Result)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if l := tr.Len(); l != 0 {
		t.Errorf("%d requests still tracked", l)
	}
}
