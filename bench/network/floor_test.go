package network

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// floorClient is a client of the floor (netagent -floor): an SSE stream
// held open, and a POST for each prompt whose events it counts.
type floorClient struct {
	url     string
	cancel  context.CancelFunc
	events  chan bool // one for each event: true for the prompt's answer
	updates atomic.Int64
}

// floorIDs numbers the floor's clients.
var floorIDs atomic.Int64

// connectFloor opens a stream of the floor at url.
func connectFloor(ctx context.Context, url string) (benchClient, error) {
	c := &floorClient{url: url + "?c=" + strconv.FormatInt(floorIDs.Add(1), 10), events: make(chan bool, 64)}
	sctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	req, _ := http.NewRequestWithContext(sctx, http.MethodGet, c.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := httpClient.Do(req)
	if err != nil {
		cancel()
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		cancel()
		return nil, fmt.Errorf("floor stream: %s", resp.Status)
	}
	go func() {
		defer resp.Body.Close()
		br := bufio.NewReaderSize(resp.Body, 4<<10)
		for {
			line, err := br.ReadSlice('\n')
			if err != nil {
				close(c.events)
				return
			}
			if data, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
				end := bytes.Contains(data, []byte(`"result"`))
				if !end {
					c.updates.Add(1)
				}
				c.events <- end
			}
		}
	}()
	return c, nil
}

func (c *floorClient) prompt(ctx context.Context, n int) (time.Duration, error) {
	start := time.Now()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.url+"&n="+strconv.Itoa(n), nil)
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		return 0, fmt.Errorf("floor prompt: %s", resp.Status)
	}
	for {
		select {
		case end, ok := <-c.events:
			if !ok {
				return 0, fmt.Errorf("floor stream ended")
			}
			if end {
				return time.Since(start), nil
			}
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

func (c *floorClient) received() int64 { return c.updates.Load() }

func (c *floorClient) close() error {
	c.cancel()
	return nil
}
