package browser

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var screenshots = flag.String("screenshots", "", "write the page's screenshots into `DIR` (docs/images to update the manual's)")

// requireEnv, set to 1 by make test where Chromium can be installed, turns
// the skip of a machine without Chromium into a failure.
const requireEnv = "ACPINSPECT_REQUIRE_BROWSER"

// chromium returns the path of Debian's chromium, or skips (loudly) or
// fails when it is missing.
func chromium(t testing.TB) string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv(requireEnv) == "1" {
		t.Fatalf("chromium is not installed, and %s=1 says it must be (make test installs Debian's chromium as root)", requireEnv)
	}
	t.Skip("SKIPPED: no chromium on this machine: the browser test of acpinspect's page did not run (make test installs Debian's chromium where it runs as root with apt-get)")
	return ""
}

// build builds the inspector (with the umbrella tag), the example agent
// and the example client into dir.
func build(t *testing.T, dir string) (inspect, agent, client string) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []struct{ out, pkg, tags string }{
		{"acpinspect", "./cmd/acpinspect", "unstable"},
		{"agent", "./examples/agent", ""},
		{"client", "./examples/client", ""},
	} {
		cmd := exec.Command("go", "build", "-tags", b.tags, "-o", filepath.Join(dir, b.out), b.pkg)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b.pkg, err, out)
		}
	}
	return filepath.Join(dir, "acpinspect"), filepath.Join(dir, "agent"), filepath.Join(dir, "client")
}

// browser starts headless Chromium and returns a tab's context.
func browser(t testing.TB, path string) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1440, 900),
	)
	t.Cleanup(acancel)
	tctx, tcancel := chromedp.NewContext(actx)
	t.Cleanup(tcancel)
	if err := chromedp.Do(tctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return tctx
}

// waitFile waits for the file at path and returns its first line.
func waitFile(t *testing.T, path string, d time.Duration) string {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			return strings.TrimSpace(string(b))
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s did not appear in %s", path, d)
	return ""
}

// shot saves a screenshot of the page under name, when -screenshots asks.
func shot(t *testing.T, ctx context.Context, name string) {
	if *screenshots == "" {
		return
	}
	time.Sleep(1600 * time.Millisecond) // new rows are highlighted for 1.5 s
	b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(*screenshots, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// count evaluates a JavaScript expression of type number.
func count(t testing.TB, ctx context.Context, expr string) int {
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return n
}

// planted is an invalid message the agent's side writes before the agent
// starts: a session update without the content its variant requires.
const planted = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_planted","update":{"sessionUpdate":"agent_message_chunk"}}}`

// TestPage runs examples/client against examples/agent through a live
// acpinspect tap, with the page open in headless Chromium: messages arrive
// on the page without a reload, the planted invalid message is flagged;
// then the capture of the run, opened again, shows the transcript, the
// plan entries, the permission outcome and the finding.
func TestPage(t *testing.T) {
	chrome := chromium(t)
	dir := t.TempDir()
	inspect, agent, client := build(t, dir)
	ctx := browser(t, chrome)

	// The agent starts once the page shows the first message: the rest of
	// the conversation must reach the page live.
	gate := filepath.Join(dir, "go")
	script := fmt.Sprintf(`i=0; while [ ! -e %q ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; printf '%%s\n' '%s'; exec %q`, gate, planted, agent)
	capture := filepath.Join(dir, "run.acpcap")
	urlFile := filepath.Join(dir, "url")
	var out, errOut bytes.Buffer
	run := exec.Command(client, "-prompt", "/plan read the code; fix the bug", "--",
		inspect, "-capture", capture, "-url-file", urlFile, "--", "sh", "-c", script)
	run.Dir, run.Stdout, run.Stderr = dir, &out, &errOut
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var runErr error
	go func() { runErr = run.Wait(); close(exited) }()
	t.Cleanup(func() {
		select {
		case <-exited:
		default:
			run.Process.Kill()
			<-exited
		}
	})

	url := waitFile(t, urlFile, 30*time.Second)
	if err := chromedp.Do(ctx, chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`#messages tbody tr[data-seq="1"]`))); err != nil {
		t.Fatalf("the page: %v", err)
	}
	first := count(t, ctx, `document.querySelectorAll("#messages tbody tr").length`)
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
		if runErr != nil {
			t.Fatalf("the client: %v\n%s\n%s", runErr, out.String(), errOut.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the client did not end in 60 s:\n%s\n%s", out.String(), errOut.String())
	}
	for _, want := range []string{"permission: allow", "stop: end_turn"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("the client's output lacks %q:\n%s\n%s", want, out.String(), errOut.String())
		}
	}
	// The page got the rest over its event stream, without a reload.
	waitCount(t, ctx, `document.querySelectorAll("#messages tbody tr").length`, first+10)
	if n := count(t, ctx, `window.acpinspectLoads`); n != 1 {
		t.Errorf("the page was loaded %d times", n)
	}
	if first >= 5 {
		t.Errorf("the page showed %d messages before the agent started: the live part was not seen", first)
	}
	if n := count(t, ctx, `document.querySelectorAll("#messages tbody tr .v-invalid").length`); n != 1 {
		t.Errorf("%d messages flagged invalid on the live page, want the planted one", n)
	}
	shot(t, ctx, "acpinspect-live.png")

	reopen(t, ctx, inspect, capture, dir)
}

// waitCount waits until expr is at least n.
func waitCount(t testing.TB, ctx context.Context, expr string, n int) {
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := count(t, ctx, expr)
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is %d after 20 s, want at least %d", expr, got, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// reopen opens the capture of the run and checks each view of the page.
func reopen(t *testing.T, ctx context.Context, inspect, capture, dir string) {
	urlFile := filepath.Join(dir, "url2")
	open := exec.Command(inspect, "-url-file", urlFile, "open", capture)
	var errOut bytes.Buffer
	open.Stderr = &errOut
	if err := open.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		open.Process.Kill()
		open.Wait()
	}()
	url := waitFile(t, urlFile, 30*time.Second)
	text := func(sel string) string {
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`#messages tbody tr .v-invalid`)),
		chromedp.Click(chromedp.CSS(`#messages tbody tr .v-invalid`)),
		chromedp.WaitVisible(chromedp.CSS(`#detail .problem`))); err != nil {
		t.Fatalf("the reopened capture: %v\n%s", err, errOut.String())
	}
	if p := text(`#detail .problem`); !strings.Contains(p, "content") {
		t.Errorf("the planted message's problem: %q", p)
	}
	shot(t, ctx, "acpinspect-messages.png")

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`nav button[data-tab="sessions"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.session .bubble.agent`))); err != nil {
		t.Fatalf("the sessions tab: %v", err)
	}
	sessions := text(`#sessions`)
	for _, want := range []string{"/plan read the code; fix the bug", "permission: allow", "read the code", "fix the bug", "outcome: allow"} {
		if !strings.Contains(sessions, want) {
			t.Errorf("the sessions tab lacks %q:\n%s", want, sessions)
		}
	}
	if n := count(t, ctx, `document.querySelectorAll(".session ul.plan li").length`); n != 2 {
		t.Errorf("%d plan entries shown, want 2", n)
	}
	shot(t, ctx, "acpinspect-sessions.png")

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`nav button[data-tab="findings"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#findings tbody tr`))); err != nil {
		t.Fatalf("the findings tab: %v", err)
	}
	if f := text(`#findings`); !strings.Contains(f, "agent.schema.decodes") {
		t.Errorf("the findings tab lacks the planted message's finding:\n%s", f)
	}
	shot(t, ctx, "acpinspect-findings.png")

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`nav button[data-tab="methods"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#methods tbody tr`))); err != nil {
		t.Fatalf("the methods tab: %v", err)
	}
	if m := text(`#methods`); !strings.Contains(m, "session/prompt") || !strings.Contains(m, "ms") {
		t.Errorf("the methods tab: %s", m)
	}
	shot(t, ctx, "acpinspect-methods.png")
}
