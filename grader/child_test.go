package grader

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"ratelab/grader/harness"
	"ratelab/grader/report"
	"ratelab/grader/wire"
)

// TestMain lets the test binary stand in for a misbehaving grading child:
// with RATELAB_FAKE_CHILD set, it is that child instead of running tests.
func TestMain(m *testing.M) {
	if mode := os.Getenv("RATELAB_FAKE_CHILD"); mode != "" {
		fakeChild(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeChild says hello, reads one request, then misbehaves as mode says;
// or, in mode spin, only keeps a core busy.
func fakeChild(mode string) {
	if api, ok := counterAPIs[mode]; ok {
		harness.Register("tokenbucket", api)
		harness.Main()
		return
	}
	if mode == "spin" {
		for {
		}
	}
	fmt.Println(wire.Hello)
	if mode == "deaf" { // never reads its input
		time.Sleep(time.Hour)
	}
	in := bufio.NewReader(os.Stdin)
	in.ReadString('\n')
	switch mode {
	case "long-line": // 100 MiB on one line
		chunk := strings.Repeat("x", 1<<20)
		for range 100 {
			os.Stdout.WriteString(chunk)
		}
		os.Stdout.WriteString("\n")
		time.Sleep(time.Hour)
	case "fork-and-exit": // leaves a grandchild holding its output open
		cmd := exec.Command("sleep", "60")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		cmd.Start()
		os.Exit(1)
	case "hang":
		time.Sleep(time.Hour)
	case "spin-on-call": // an endless loop in the call
		for {
		}
	case "answer":
		fmt.Println(`{"ret":[true]}`)
		in.ReadString('\n')
	case "answer-all": // answers every request alike
		for {
			fmt.Println(`{"ret":[true]}`)
			if _, err := in.ReadString('\n'); err != nil {
				return
			}
		}
	case "ahead-same": // answers the call sent ahead as expected
		fmt.Println(`{"ret":[true]}`)
		fmt.Println(`{"stop":"1"}`)
		in.ReadString('\n')
	case "ahead-other": // answers the call sent ahead otherwise
		fmt.Println(`{"ret":[false]}`)
		fmt.Println(`{"stop":"1"}`)
		in.ReadString('\n')
	case "ahead-more": // answers more calls than were sent ahead
		fmt.Println(`{"ret":[true]}`)
		fmt.Println(`{"ret":[true]}`)
		fmt.Println(`{"stop":"2"}`)
		in.ReadString('\n')
	case "profile": // prepares a run, then answers its Bench with RATELAB_FAKE_PROFILE
		fmt.Println(`{}`)
		in.ReadString('\n')
		fmt.Println(os.Getenv("RATELAB_FAKE_PROFILE"))
		in.ReadString('\n')
	}
}

// eachRead runs f as two subtests: the child's answers read where they
// are awaited (pipes with read deadlines, as on Unix), and passed on by a
// reader goroutine (as on Windows, whose pipes have none).
func eachRead(t *testing.T, f func(t *testing.T)) {
	for _, direct := range []bool{true, false} {
		name := "goroutine"
		if direct {
			name = "direct"
		}
		t.Run(name, func(t *testing.T) {
			old := readDirectly
			readDirectly = direct
			defer func() { readDirectly = old }()
			f(t)
		})
	}
}

// fake returns a child that runs the test binary in mode.
func fake(t *testing.T, ctx context.Context, mode string) *child {
	t.Helper()
	t.Setenv("RATELAB_FAKE_CHILD", mode)
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return newChild(ctx, bin, "tokenbucket", t.TempDir(), nil)
}

// call makes one call and returns why the child was lost, if it was.
func call(c *child) (lost *lostError) {
	defer func() {
		if r := recover(); r != nil {
			l, ok := r.(*lostError)
			if !ok {
				panic(r)
			}
			lost = l
		}
	}()
	var got bool
	c.Call(0, "TryAcquire", []any{uint64(1), uint64(1)}, &got)
	return nil
}

func TestMisbehavingChildrenAreLostQuickly(t *testing.T) {
	eachRead(t, func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("the fake children use sleep and process groups")
		}
		// The check's time is 2s, but 10s for the child that exits with a
		// grandchild holding its output: its exit is seen when Wait
		// returns, up to a second after it (exec.Cmd.WaitDelay), which a
		// busy machine can stretch past 2s into a timeout.
		for _, tc := range []struct {
			mode  string
			want  lostKind
			check time.Duration
		}{
			{"long-line", lostCrash, 2 * time.Second},
			{"deaf", lostTimeout, 2 * time.Second},
			{"fork-and-exit", lostCrash, 10 * time.Second},
			{"hang", lostTimeout, 2 * time.Second},
		} {
			t.Run(tc.mode, func(t *testing.T) {
				before := runtime.NumGoroutine()
				c := fake(t, context.Background(), tc.mode)
				c.arm(tc.check)
				start := time.Now()
				l := call(c)
				if l == nil || l.kind != tc.want {
					t.Fatalf("lost = %+v, want kind %d", l, tc.want)
				}
				if d := time.Since(start); d >= 10*time.Second {
					t.Errorf("took %s to give up on the child", d)
				}
				if tc.mode == "long-line" && !strings.Contains(l.detail, "more than") {
					t.Errorf("detail %q, want it to say the line was too long", l.detail)
				}
				// A child that waits without the CPU meets the check's
				// deadline, and the call it did not answer is named, as
				// blocked where the OS tells the child's CPU time.
				_, measured := cpuUsed(os.Getpid())
				if tc.want == lostTimeout && (l.call != "TryAcquire(1, 1)" || l.cpu != 0 || l.blocked != measured) {
					t.Errorf("lost to a timeout of %q past %s of CPU time (blocked %v), want TryAcquire(1, 1) past the check's deadline, blocked", l.call, l.cpu, l.blocked)
				}
				c.stop()
				if c.takeLost() == nil {
					t.Error("takeLost = nil after a loss")
				}
				noLeak(t, before)
			})
		}
	})
}

// TestACallThatSpinsIsLostToItsCPULimit: a call that keeps the CPU busy
// is stopped once it has used callCPULimit of CPU time, long before the
// check's deadline, and the timeout names it with its parameters' names.
func TestACallThatSpinsIsLostToItsCPULimit(t *testing.T) {
	eachRead(t, func(t *testing.T) {
		if _, ok := cpuUsed(os.Getpid()); !ok {
			t.Skip("this OS gives no CPU time of another process")
		}
		before := runtime.NumGoroutine()
		c := fake(t, context.Background(), "spin-on-call")
		c.params = map[string][]string{"TryAcquire": {"nowNs", "n"}}
		c.callLimit = 300 * time.Millisecond // not the 2s of CPU by default (see TestOptionsShapeTheChild)
		c.arm(2 * time.Minute)               // far more than that takes, even on a busy machine
		l := call(c)
		if l == nil || l.kind != lostTimeout || l.cpu != c.callLimit {
			t.Fatalf("lost = %+v, want a timeout past the call's %s of CPU time", l, c.callLimit)
		}
		want := "TryAcquire(nowNs=1, n=1) did not return within 300ms of CPU time"
		if msg := l.describe(2 * time.Minute); !strings.HasPrefix(msg, want) {
			t.Errorf("message %q, want it to start %q", msg, want)
		}
		c.stop()
		noLeak(t, before)
	})
}

// TestOvertimeCountsTheChildsCPU: past the check's deadline on the clock,
// the check goes on while the child, running, has used less than the
// deadline's worth of CPU time (a busy machine), and ends once it has, at
// the hard deadline, or when the call is not running at all.
func TestOvertimeCountsTheChildsCPU(t *testing.T) {
	var used time.Duration // what the fake reading says the child has used
	c := newChild(context.Background(), "", "tokenbucket", t.TempDir(), nil)
	c.cmd = exec.Command("true")
	c.cmd.Process = &os.Process{Pid: 1}
	c.cpu = func(int) (time.Duration, bool) { return used, true }
	c.arm(20 * time.Second)
	c.checkCPU, c.checkCPUKnown = 0, true
	var call callWatch
	step := func(cpu time.Duration, wall time.Duration) (time.Duration, bool, bool) {
		used = cpu
		call.at = call.at.Add(-wall) // as if wall had passed since the last reading
		wait, why, over := c.overtime(&call)
		return wait, why == overBlocked, over
	}
	if wait, _, over := step(5*time.Second, 0); over || wait > time.Second {
		t.Fatalf("first look at 5 s of CPU: wait %s, over %v; want a look again within a second", wait, over)
	}
	if wait, _, over := step(6*time.Second, 2*time.Second); over || wait != 14*time.Second {
		t.Errorf("running, 6 s of CPU: wait %s, over %v; want 14 s more, the CPU time left", wait, over)
	}
	if _, blocked, over := step(20*time.Second, 14*time.Second); !over || blocked {
		t.Errorf("20 s of CPU: over %v, blocked %v; want over, not blocked", over, blocked)
	}
	call = callWatch{}
	used = 21 * time.Second
	if _, why, over := c.overtime(&call); !over || why != overWhole {
		t.Errorf("a call begun after 21 s of CPU: over %v, why %d; want over, the check's calls together", over, why)
	}
	// The kernel counts CPU time in 10 ms ticks: no tick in 50 ms, on a
	// busy machine, is no sign that the call waits.
	call = callWatch{}
	step(1*time.Second, 0)
	if wait, blocked, over := step(1*time.Second, 50*time.Millisecond); over || blocked || wait > blockedWindow {
		t.Errorf("no CPU time in 50 ms: wait %s, over %v, blocked %v; want a look again within %s, not over", wait, over, blocked, blockedWindow)
	}
	call = callWatch{}
	step(1*time.Second, 0)
	if _, blocked, over := step(1*time.Second+time.Millisecond, 10*time.Second); !over || !blocked {
		t.Errorf("1 ms of CPU in 10 s: over %v, blocked %v; want over, blocked", over, blocked)
	}
	c.hard = time.Now()
	call = callWatch{}
	if _, _, over := step(time.Second, 0); !over {
		t.Error("past the hard deadline: not over")
	}
}

// TestParamNamesComeFromTheStub: a call that did not return is written
// with the stub's names for its arguments, or without names when they do
// not match.
func TestParamNamesComeFromTheStub(t *testing.T) {
	names := paramNames("../exercises/hierarchy")
	for _, c := range []struct {
		fn   string
		args []any
		want string
	}{
		{"TryAcquire", []any{3, uint64(1000), uint64(1)}, "TryAcquire(node=3, nowNs=1000, n=1)"},
		{"Add", []any{-1, uint64(10), uint64(2000)}, "Add(parent=-1, capacity=10, ratePerSec=2000)"},
		{"Available", []any{3}, "Available(3)"}, // one argument short: no names
		{"Open", []any{"regular"}, `Open("regular")`},
	} {
		if got := callText(c.fn, c.args, names[c.fn]); got != c.want {
			t.Errorf("callText(%s, %v) = %q, want %q", c.fn, c.args, got, c.want)
		}
	}
}

func TestCancelledGradingStopsTheChild(t *testing.T) {
	eachRead(t, func(t *testing.T) {
		before := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		c := fake(t, ctx, "hang")
		c.arm(time.Minute)
		cancel() // the call sees the cancellation, not an answer: none comes
		if l := call(c); l == nil || l.kind != lostCanceled {
			t.Fatalf("lost = %+v, want cancelled", l)
		}
		c.stop()
		noLeak(t, before)
	})
}

func TestAnsweringChildStopsCleanly(t *testing.T) {
	eachRead(t, func(t *testing.T) {
		before := runtime.NumGoroutine()
		c := fake(t, context.Background(), "answer")
		c.arm(10 * time.Second)
		if l := call(c); l != nil {
			t.Fatalf("lost: %+v", l)
		}
		c.stop()
		noLeak(t, before)
	})
}

// TestTheGradersOwnTimeIsNotTheChecks: the time the grader spends
// between calls (its models, shrinking, diagnosis: long on a busy
// machine) is not the check's: a call made once the check's hard deadline
// has passed on the clock is answered, not a timeout.
func TestTheGradersOwnTimeIsNotTheChecks(t *testing.T) {
	eachRead(t, func(t *testing.T) {
		c := fake(t, context.Background(), "answer-all")
		c.arm(time.Minute)
		if l := call(c); l != nil { // started, and serving
			t.Fatalf("first call lost: %+v", l)
		}
		const limit = 500 * time.Millisecond
		c.arm(limit)
		time.Sleep(hardFactor*limit + 100*time.Millisecond) // the grader's own work
		if l := call(c); l != nil {
			t.Errorf("a call after the grader's own work: lost %+v", l)
		}
		c.stop()
	})
}

// noLeak fails if goroutines started since before are still running once
// the child was stopped (a reader, a waiter, a copier left behind).
func noLeak(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines left running after the child stopped (%d before):\n%s", n-before, before, buf[:runtime.Stack(buf, true)])
	}
}

func TestExcerptKeepsTheStartAndTheEnd(t *testing.T) {
	e := &excerpt{max: 40} // 10 bytes of head, 30 of tail
	e.Write([]byte("fatal error: out of memory\n"))
	e.Write([]byte(strings.Repeat("x", 100)))
	e.Write([]byte("last line"))
	got := e.String()
	if !strings.HasPrefix(got, "fatal erro") || !strings.HasSuffix(got, "last line") || !strings.Contains(got, "…") {
		t.Errorf("excerpt = %q; want the first bytes, an ellipsis, and the last bytes", got)
	}
	if len(got) > 40+len("\n…\n") {
		t.Errorf("excerpt is %d bytes, want at most 40 plus the ellipsis", len(got))
	}
	short := &excerpt{max: 40}
	short.Write([]byte("panic: boom"))
	if got := short.String(); got != "panic: boom" {
		t.Errorf("short excerpt = %q, want it whole", got)
	}
}

// TestReplacementsOfOneSizeAndTime: two replacements of one file with the
// same size and modification time, as a fresh checkout gives fixtures, and
// different imports, build one after the other, each with its own imports.
// The go command's index of package folders, keyed by name, size and time,
// used to build the second with the first's ("could not import math/bits").
func TestReplacementsOfOneSizeAndTime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and grades twice")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// Each imports one package the other does not, padded to one size.
	source := func(pkg, use string) string {
		return "package tokenbucket\n\nimport \"" + pkg + "\"\n\nvar _ = " + use + "\n\n" +
			"type TokenBucket struct{}\n\n" +
			"func New(capacity, ratePerSec, nowNs uint64) *TokenBucket { return &TokenBucket{} }\n" +
			"func (b *TokenBucket) TryAcquire(nowNs, n uint64) bool    { return false }\n" +
			"func (b *TokenBucket) Available(nowNs uint64) uint64      { return 0 }\n"
	}
	withBig, withBits := source("math/big", "big.NewInt"), source("math/bits", "bits.LeadingZeros64")
	withBig += "//" + strings.Repeat("x", len(withBits)-len(withBig)-3) + "\n"
	if len(withBits) != len(withBig) {
		t.Fatalf("sizes %d and %d differ", len(withBits), len(withBig))
	}
	stamp := time.Now().Add(-time.Hour) // past the go command's 2 s cutoff for indexing
	var dirs []string
	for _, text := range []string{withBig, withBits} {
		dir := t.TempDir()
		f := filepath.Join(dir, "tokenbucket.go")
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(f, stamp, stamp); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	for i, dir := range dirs {
		g := &grading{opts: Options{Root: root, Module: "ratelab", Target: "exercises", Replace: map[string]string{"tokenbucket": dir}}, tmp: t.TempDir()}
		if _, broken, err := g.buildEach(context.Background(), []string{"tokenbucket"}); err != nil || len(broken) > 0 {
			t.Errorf("replacement %d: %v %v", i+1, err, broken)
		}
	}
}

// sendOneAhead sends TryAcquire(1, 1) ahead, expecting true.
func sendOneAhead(c *child) {
	c.Base()
	line := wire.AppendCall(nil, 0, "TryAcquire", []json.RawMessage{json.RawMessage(`"1"`), json.RawMessage(`"1"`)})
	c.SendAhead([]json.RawMessage{line}, []json.RawMessage{json.RawMessage(`{"ret":[true]}`)}, nil)
}

// TestACallSentAheadThatSpinsIsNamed: a call sent ahead that does not
// return is waited for as it would be sent by itself: its timeout is the
// call's own, naming it, within the call's limit of CPU time.
func TestACallSentAheadThatSpinsIsNamed(t *testing.T) {
	if _, ok := cpuUsed(os.Getpid()); !ok {
		t.Skip("this OS gives no CPU time of another process")
	}
	before := runtime.NumGoroutine()
	c := fake(t, context.Background(), "spin-on-call")
	c.params = map[string][]string{"TryAcquire": {"nowNs", "n"}}
	c.callLimit = 500 * time.Millisecond
	c.arm(2 * time.Minute)
	sendOneAhead(c)
	l := call(c)
	if want := "TryAcquire(nowNs=1, n=1) did not return within 500ms of CPU time"; l == nil || !strings.HasPrefix(l.describe(2*time.Minute), want) {
		t.Fatalf("lost = %+v, want %q", l, want)
	}
	if c.cmd != nil || len(c.batch) > 0 {
		t.Errorf("after a call sent ahead timed out: process running %t, %d calls sent ahead pending; want neither", c.cmd != nil, len(c.batch))
	}
	c.stop()
	noLeak(t, before)
}

// TestAReplayOutOfStepIsTheGradersFault: a call that is not the next one
// sent ahead, or calls sent ahead that the replay never asks for, lose the
// process with a message that blames the grader.
func TestAReplayOutOfStepIsTheGradersFault(t *testing.T) {
	for _, tc := range []struct {
		name string
		then func(c *child) *lostError
	}{
		{"another call", func(c *child) *lostError {
			defer func() { recover() }()
			var got bool
			c.Call(0, "TryAcquire", []any{uint64(2), uint64(1)}, &got)
			return nil
		}},
		{"a call left", func(c *child) *lostError { c.EndAhead(); return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := fake(t, context.Background(), "ahead-same")
			c.arm(time.Minute)
			sendOneAhead(c)
			if len(c.later) != 1 {
				t.Fatalf("%d calls to send ahead, want 1", len(c.later))
			}
			// The batch goes out with the replay's first call: send it as
			// that call would, then go out of step.
			if !c.sendsAhead(c.later[0].call) {
				t.Fatal("the call sent ahead was not sent")
			}
			tc.then(c)
			if l := c.takeLost(); l == nil || l.detail != outOfStep {
				t.Errorf("lost = %+v, want %q", l, outOfStep)
			}
			c.stop()
		})
	}
}

// TestCallsSentAheadAnswerTheReplay: the calls sent ahead are answered
// from what the process answered, without asking it again, whether or
// not that is the answer expected.
func TestCallsSentAheadAnswerTheReplay(t *testing.T) {
	for mode, want := range map[string]bool{"ahead-same": true, "ahead-other": false} {
		t.Run(mode, func(t *testing.T) {
			c := fake(t, context.Background(), mode)
			c.arm(time.Minute)
			sendOneAhead(c)
			got := !want
			c.Call(0, "TryAcquire", []any{uint64(1), uint64(1)}, &got)
			c.EndAhead()
			if got != want || c.lost != nil {
				t.Errorf("TryAcquire sent ahead = %t (lost %v), want the process's answer %t", got, c.lost, want)
			}
			c.stop()
		})
	}
}

// TestMoreAnswersThanCallsSentAheadBreakTheProtocol: a process that
// answers calls it was not sent is lost, as one that breaks the
// protocol, and none of its answers is taken.
func TestMoreAnswersThanCallsSentAheadBreakTheProtocol(t *testing.T) {
	c := fake(t, context.Background(), "ahead-more")
	c.arm(time.Minute)
	sendOneAhead(c)
	if l := call(c); l == nil || l.kind != lostProtocol || len(c.batch) != 0 {
		t.Errorf("lost = %+v with %d calls sent ahead pending, want the protocol broken and none", l, len(c.batch))
	}
	c.stop()
}

// TestOptionsShapeTheChild: Options.CallCPULimit is the child's limit of
// a call, and Options.OneByOne keeps it from sending calls ahead (Base
// gives no handle), which it does by default.
func TestOptionsShapeTheChild(t *testing.T) {
	for _, o := range []Options{{}, {OneByOne: true, CallCPULimit: time.Second}} {
		if err := o.normalize(); err != nil {
			t.Fatal(err)
		}
		c := (&grading{opts: o}).child(context.Background(), "", "tokenbucket")
		if base := c.Base(); (base == 0) != o.OneByOne || c.callLimit != o.CallCPULimit {
			t.Errorf("%+v: Base %d, call limit %s; want a handle unless one by one, and %s", o, base, c.callLimit, o.CallCPULimit)
		}
	}
}

// A grading program that cannot start is the server's fault, said as a
// field, so that class mode retries it instead of charging the learner.
func TestAChildThatCannotStartIsTheServersFault(t *testing.T) {
	opts := Options{Root: "..", Seed: DefaultSeed}
	if err := opts.normalize(); err != nil {
		t.Fatal(err)
	}
	g := &grading{opts: opts, tmp: t.TempDir()}
	ex := report.Exercise{ID: "gcra"}
	g.runExercise(context.Background(), filepath.Join(t.TempDir(), "no-such-program"), "gcra", &ex)
	if ex.Status != report.Error || ex.Fault != report.FaultServer {
		t.Errorf("a program that is not there: %s, fault %q (%q); want error, the server's fault", ex.Status, ex.Fault, ex.Message)
	}
}
