package main

import (
	"net/http"
	"strconv"
	"sync"
)

// floor is what the machine allows: the same event bytes as the agent's
// session updates, written by a bare net/http SSE handler with no ACP (no
// JSON-RPC, no connection, no routing). A client holds a stream open with
// GET /acp?c=ID; each POST /acp?c=ID&n=N has the handler of that stream
// write N events, each the text of one session/update notification, and
// one event more for the prompt's answer, then flush once.
type floorServer struct {
	mu      sync.Mutex
	streams map[string]chan int
}

func newFloor() *floorServer { return &floorServer{streams: map[string]chan int{}} }

// chunkEvent is the SSE event of one agent message chunk, as acphttp
// writes it without resumable streams.
var chunkEvent = []byte(`data: {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"bench_1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"chunk"}}}}` + "\n\n")

// endEvent is the event of the prompt's answer.
var endEvent = []byte(`data: {"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}` + "\n\n")

func (f *floorServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("c")
	switch r.Method {
	case http.MethodGet:
		ch := make(chan int, 1)
		f.mu.Lock()
		f.streams[id] = ch
		f.mu.Unlock()
		defer func() {
			f.mu.Lock()
			delete(f.streams, id)
			f.mu.Unlock()
		}()
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		rc := http.NewResponseController(w)
		if rc.Flush() != nil {
			return
		}
		for {
			select {
			case n := <-ch:
				for range n {
					if _, err := w.Write(chunkEvent); err != nil {
						return
					}
				}
				if _, err := w.Write(endEvent); err != nil || rc.Flush() != nil {
					return
				}
			case <-r.Context().Done():
				return
			}
		}
	case http.MethodPost:
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		f.mu.Lock()
		ch := f.streams[id]
		f.mu.Unlock()
		if ch == nil {
			http.NotFound(w, r)
			return
		}
		ch <- min(n, 1_000_000)
		w.WriteHeader(http.StatusAccepted)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}
