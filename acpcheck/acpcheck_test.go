package acpcheck

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if fault, ok := os.LookupEnv("ACPCHECK_FAKE_AGENT"); ok {
		runFakeAgent(fault, os.Stdin, os.Stdout)
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "acpcheck-test-")
	if err != nil {
		panic(err)
	}
	builtDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fake returns the target that runs the fake agent with a fault.
func fake(t *testing.T, fault string) Target {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := Command(exe)
	// A binary built with -race sleeps 1 s at exit unless told not to.
	c.Env = append(os.Environ(), "ACPCHECK_FAKE_AGENT="+fault, "GORACE=atexit_sleep_ms=0")
	return c
}

func checkFake(t *testing.T, fault string, versions ...int) *Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return CheckAgent(ctx, fake(t, fault), AgentOptions{Versions: versions, Timeout: 2 * time.Second})
}

// TestFakeAgentPasses: the fake agent without a fault passes every
// requirement the kit can exercise on it, in both versions.
func TestFakeAgentPasses(t *testing.T) {
	r := checkFake(t, "", 1, 2)
	for _, v := range r.Verdicts {
		if v.Status == Fail {
			t.Errorf("%s (v%d): %s\n%s", v.ID, v.Version, v.Detail, transcriptText(v.Transcript))
		}
	}
	if !r.OK() {
		t.Fatal(r.Text())
	}
	for _, id := range []ID{AgentCancelPermission, AgentPromptV2RequiresAction, AgentSessionV2Required, AgentSessionDelete, AgentPlanV2ID, AgentPlanV1Fallback, AgentSessionLoadReplay} {
		if vs := r.Find(id); len(vs) == 0 || vs[len(vs)-1].Status != Pass {
			t.Errorf("%s: %v, want a pass", id, vs)
		}
	}
	if r.Duration > 10*time.Second {
		t.Errorf("the run took %v, more than 10 s", r.Duration)
	}
}

// TestPlantedFaults: for each fault the fake agent can plant, the kit
// fails the requirement the fault breaks.
func TestPlantedFaults(t *testing.T) {
	cases := []struct {
		fault    string
		versions []int
		req      ID
	}{
		{"framing", []int{1}, AgentStdioFraming},
		{"load-no-replay", []int{1}, AgentSessionLoadReplay},
		{"load-replay-after", []int{1}, AgentSessionLoadReplay},
		{"utf8", []int{1}, AgentStdioUTF8},
		{"eof", []int{1}, AgentStdioEOFExit},
		{"version", []int{1}, AgentInitVersionUnsupported},
		{"notification-answer", []int{1}, AgentRPCNotificationSilent},
		{"id-string", []int{1}, AgentRPCIDString},
		{"method-not-found", []int{1}, AgentRPCMethodNotFound},
		{"parse-error", []int{1}, AgentRPCParseError},
		{"schema", []int{1}, AgentSchemaValid},
		{"stop-reason", []int{1}, AgentPromptV1StopReason},
		{"late-update", []int{1}, AgentPromptV1UpdatesInTurn},
		{"cancel", []int{1}, AgentCancelPermission},
		{"plan-fallback", []int{1}, AgentPlanV1Fallback},
		{"v2-user-message", []int{2}, AgentPromptV2UserMessage},
		{"v2-running", []int{2}, AgentPromptV2RunningIdle},
		{"v2-required", []int{2}, AgentSessionV2Required},
		{"v2-resume-state", []int{2}, AgentSessionV2ResumeState},
		{"v2-plan-no-id", []int{2}, AgentPlanV2ID},
		{"v2-v1-plan", []int{2}, AgentPlanV2NoV1Plan},
	}
	for _, tc := range cases {
		t.Run(tc.fault, func(t *testing.T) {
			t.Parallel()
			r := checkFake(t, tc.fault, tc.versions...)
			failed := false
			for _, v := range r.Find(tc.req) {
				failed = failed || v.Status == Fail
			}
			if !failed {
				t.Errorf("%s not failed:\n%s", tc.req, r.Text())
			}
			if req, _ := Lookup(tc.req); req.Tier == Must && r.OK() {
				t.Errorf("a failed MUST, yet OK")
			}
		})
	}
}

// TestAuthRequired: an agent that wants authentication before session/new
// (which the kit never gives) holds every MUST the kit can reach, and the
// session and prompt checks are not exercised rather than failed.
func TestAuthRequired(t *testing.T) {
	r := checkFake(t, "auth", 1, 2)
	if !r.OK() || len(r.Failed()) > 0 {
		t.Fatal(r.Text())
	}
	for _, id := range []ID{AgentSessionNew, AgentPromptV1StopReason, AgentPromptV2RunningIdle, AgentSessionV2Required} {
		vs := r.Find(id)
		if len(vs) == 0 || vs[len(vs)-1].Status != NotExercised {
			t.Errorf("%s: %+v", id, vs)
		}
	}
}

// TestNotAnAgent: a program that exits at once fails initialize and gets
// no vacuous pass.
func TestNotAnAgent(t *testing.T) {
	r := checkFake(t, "exit", 1, 2)
	if r.OK() {
		t.Error("OK")
	}
	for _, v := range r.Verdicts {
		if v.Status == Pass {
			t.Errorf("%s (v%d) passed: %s", v.ID, v.Version, v.Detail)
		}
	}
	if vs := r.Find(AgentInitAnswer); len(vs) != 2 || vs[0].Status != Fail {
		t.Errorf("agent.init.answer: %+v", vs)
	}
}

// TestCancelledRun: a run whose context ends stops waiting at once.
func TestCancelledRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	r := CheckAgent(ctx, fake(t, "parse-error"), AgentOptions{Versions: []int{1}, Timeout: 20 * time.Second})
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("the cancelled run took %v", d)
	}
	if r == nil {
		t.Fatal("no report")
	}
}
