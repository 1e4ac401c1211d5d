package browser

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/acpgen/acpgen/acpinspect"
	"github.com/chromedp/chromedp"
)

// The page with many recorded messages: an Inspector holding n messages (a
// v1 handshake, a prompt, and n-3 session updates of an agent's turn),
// served by ListenUI in this process, opened in headless Chromium.

// maxNodes bounds the page's elements whatever the number of messages: the
// list holds one page of rows (200, about a dozen elements each) and the
// rest of the page a few hundred.
const maxNodes = 4000

// record adds n messages, from seq first on, to in.
func record(in *acpinspect.Inspector, first, n int) {
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(first) * time.Millisecond)
	add := func(from acpinspect.Sender, line string) {
		t = t.Add(time.Millisecond)
		in.Record(acpinspect.Frame{Conn: 1, Time: t, From: from, Data: []byte(line)})
	}
	for i := first; i < first+n; i++ {
		switch {
		case i == 1:
			add(acpinspect.FromClient, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
		case i == 2:
			add(acpinspect.FromAgent, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`)
		case i == 3:
			add(acpinspect.FromClient, `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"sess_1","prompt":[{"type":"text","text":"go"}]}}`)
		case i%50 == 0:
			add(acpinspect.FromAgent, fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"tool_call","toolCallId":"call_%d","title":"read file %d","kind":"read","status":"completed"}}}`, i, i))
		default:
			add(acpinspect.FromAgent, fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"agent_message_chunk","messageId":"msg_%d","content":{"type":"text","text":"part %d of the answer "}}}}`, i/1000, i))
		}
	}
}

// pageTimes are the page's times with many messages.
type pageTimes struct {
	firstRender, firstPage, nextPage, latestPage, liveAppend time.Duration
	nodes, liveNodes                                         int
}

// bigPage records n messages, opens the page, pages through the list and
// has `live` more messages arrive, and returns the times; it fails when the
// page's elements are not bounded by maxNodes.
func bigPage(t testing.TB, ctx context.Context, n, live int) pageTimes {
	in := acpinspect.NewInspector()
	record(in, 1, n)
	ui, err := acpinspect.ListenUI("127.0.0.1:0", in, acpinspect.UIOptions{About: "many messages"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ui.Close() })
	var pt pageTimes
	step := func(d *time.Duration, what string, actions ...chromedp.Action[chromedp.Void]) {
		start := time.Now()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		*d = time.Since(start)
	}
	row := func(seq int) chromedp.Action[chromedp.Void] {
		return chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#messages tbody tr[data-seq="%d"]`, seq)))
	}
	const nodes = `document.getElementsByTagName("*").length`
	step(&pt.firstRender, "the page's first render", chromedp.Navigate(ui.URL), row(n))
	pt.nodes = count(t, ctx, nodes)
	step(&pt.firstPage, "the first page", chromedp.Click(chromedp.CSS("#first")), row(1))
	step(&pt.nextPage, "the next page", chromedp.Click(chromedp.CSS("#next")), row(201))
	step(&pt.latestPage, "the latest page", chromedp.Click(chromedp.CSS("#last")), row(n))
	// Live messages while the page follows the latest.
	start := time.Now()
	record(in, n+1, live)
	waitCount(t, ctx, `Number(document.querySelector("#messages tbody tr:last-child").dataset.seq)`, n+live)
	pt.liveAppend = time.Since(start)
	pt.liveNodes = count(t, ctx, nodes)
	if rows := count(t, ctx, `document.querySelectorAll("#messages tbody tr").length`); rows != 200 {
		t.Errorf("the list shows %d rows, want one page of 200", rows)
	}
	for _, c := range []int{pt.nodes, pt.liveNodes} {
		if c > maxNodes {
			t.Errorf("the page has %d elements with %d messages recorded, want at most %d", c, n, maxNodes)
		}
	}
	return pt
}

// TestPageMany: with 10,000 messages recorded, the page shows one page of
// rows, pages through them, follows live messages, and its elements stay
// bounded.
func TestPageMany(t *testing.T) {
	ctx := browser(t, chromium(t))
	bigPage(t, ctx, 10_000, 300)
}

// BenchmarkPage100k: the page with 100,000 messages recorded, in headless
// Chromium: the time to the first render of the latest page, to the first
// page, the next and the latest again, for 2,000 live messages to reach
// the page, and the page's elements.
func BenchmarkPage100k(b *testing.B) {
	ctx := browser(b, chromium(b))
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
	for i := 0; i < b.N; i++ {
		pt := bigPage(b, ctx, 100_000, 2000)
		b.ReportMetric(ms(pt.firstRender), "first-render-ms")
		b.ReportMetric(ms(pt.firstPage), "first-page-ms")
		b.ReportMetric(ms(pt.nextPage), "next-page-ms")
		b.ReportMetric(ms(pt.latestPage), "latest-page-ms")
		b.ReportMetric(ms(pt.liveAppend), "live-2000-ms")
		b.ReportMetric(float64(pt.liveNodes), "elements")
	}
}
