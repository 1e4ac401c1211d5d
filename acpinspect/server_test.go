package acpinspect

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"
)

// uiClient opens the page with its token and returns a client that holds
// the cookie, and the page's base URL.
func uiClient(t *testing.T, s *UIServer) (*http.Client, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	resp, err := c.Get(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "acpinspect") {
		t.Fatalf("the page: %d %s", resp.StatusCode, body)
	}
	return c, strings.TrimSuffix(s.URL[:strings.Index(s.URL, "?")], "/")
}

// TestUIAccess: the page is served to the holder of the token, on its
// loopback Host, and to its own pages only.
func TestUIAccess(t *testing.T) {
	in := NewInspector()
	s, err := ListenUI("127.0.0.1:0", in, UIOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := ListenUI("0.0.0.0:0", in, UIOptions{}); err == nil {
		t.Error("ListenUI on a public address did not fail")
	}
	c, base := uiClient(t, s)
	status := func(url string, header map[string]string, client *http.Client) int {
		req, _ := http.NewRequest("GET", url, nil)
		for k, v := range header {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	host := strings.TrimPrefix(base, "http://")
	checks := []struct {
		name   string
		header map[string]string
		client *http.Client
		want   int
	}{
		{"with the cookie", nil, c, 200},
		{"without the token", nil, http.DefaultClient, 401},
		{"a rebound name", map[string]string{"Host": "evil.example:" + host[strings.LastIndex(host, ":")+1:]}, c, 403},
		{"another port", map[string]string{"Host": "127.0.0.1:1"}, c, 403},
		{"another page", map[string]string{"Origin": "http://evil.example"}, c, 403},
		{"its own page", map[string]string{"Origin": base}, c, 200},
		{"cross-site", map[string]string{"Sec-Fetch-Site": "cross-site"}, c, 403},
	}
	for _, ch := range checks {
		if got := status(base+"/api/summary", ch.header, ch.client); got != ch.want {
			t.Errorf("%s: %d, want %d", ch.name, got, ch.want)
		}
	}
	if got := status(base+"/?token=wrong", nil, http.DefaultClient); got != 401 {
		t.Errorf("a wrong token: %d", got)
	}
}

// TestUILive: the event stream delivers messages recorded after the page
// opened, and the pages of the list and a message's detail are served.
func TestUILive(t *testing.T) {
	in := NewInspector()
	s, err := ListenUI("127.0.0.1:0", in, UIOptions{About: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, base := uiClient(t, s)
	feed(t, in, `c {"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	resp, err := c.Get(base + "/api/events?from=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := make(chan []Entry, 10)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		name := ""
		for sc.Scan() {
			line := sc.Text()
			if n, ok := strings.CutPrefix(line, "event: "); ok {
				name = n
			}
			if d, ok := strings.CutPrefix(line, "data: "); ok && name == "messages" {
				var es []Entry
				json.Unmarshal([]byte(d), &es)
				events <- es
			}
		}
		close(events)
	}()
	next := func() []Entry {
		select {
		case es := <-events:
			return es
		case <-time.After(10 * time.Second):
			t.Fatal("no event in 10 s")
		}
		return nil
	}
	if es := next(); len(es) != 1 || es[0].Method != "initialize" {
		t.Fatalf("first event: %+v", es)
	}
	feed(t, in, `a {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`)
	if es := next(); len(es) != 1 || es[0].Seq != 2 || es[0].Pair != 1 {
		t.Fatalf("second event: %+v", es)
	}
	var p Page
	getJSON(t, c, base+"/api/messages?before=3&limit=1", &p)
	if len(p.Entries) != 1 || p.Entries[0].Seq != 2 || !p.More || p.Total != 2 {
		t.Errorf("page before 3: %+v", p)
	}
	var d Detail
	getJSON(t, c, base+"/api/message?seq=2", &d)
	if !strings.Contains(d.Text, "\n  \"result\"") {
		t.Errorf("detail text: %q", d.Text)
	}
	resp2, err := c.Get(base + "/export.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp2.Body)
	resp2.Body.Close()
	if strings.Count(string(b), "\n") != 2 {
		t.Errorf("export: %s", b)
	}
}

func getJSON(t *testing.T, c *http.Client, url string, v any) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
}
