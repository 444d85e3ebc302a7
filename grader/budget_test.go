package grader_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
)

// TestBudgetVerdictDoesNotDependOnLoad grades a correct bucket that takes
// about 30 ns a call (fixture near-budget: the budget is 40) on a quiet
// machine and with three processes spinning beside it: the two verdicts
// must agree. No time is asserted, only that the load does not decide.
func TestBudgetVerdictDoesNotDependOnLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("benchmarks")
	}
	verdict := func() (report.Status, string) {
		ex := gradeFixture(t, "tokenbucket", "near-budget", true, 20*time.Second)
		for _, c := range ex.Checks {
			if c.Kind == report.Benchmark {
				return c.Status, c.Message
			}
		}
		t.Fatal("no benchmark check")
		return "", ""
	}
	quiet, qmsg := verdict()
	stop := spin(t, 3)
	busy, bmsg := verdict()
	stop()
	if quiet != busy {
		t.Errorf("the budget verdict changed with the load: quiet %s (%s), busy %s (%s)", quiet, qmsg, busy, bmsg)
	}
}

// spin starts n processes that keep a core busy each, until stop.
func spin(t *testing.T, n int) (stop func()) {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	for range n {
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), "RATELAB_FAKE_CHILD=spin")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	stop = func() {
		for _, c := range cmds {
			c.Process.Kill()
			c.Wait()
		}
		cmds = nil
	}
	t.Cleanup(stop)
	return stop
}

// TestAllocationsAreARate grades the benchmarks of three correct
// implementations that allocate as they run: once a call, about once
// every second call (a whole count of allocations per call, rounded
// down, read that as none), and once every thousand calls (a history
// grown a chunk at a time). Each rate is reported as measured, and the
// budget allows the last alone: amortised growth, at most one allocation
// per 100 calls.
func TestAllocationsAreARate(t *testing.T) {
	if testing.Short() {
		t.Skip("benchmarks")
	}
	for _, c := range []struct {
		exercise, name string
		lo, hi         float64 // allocations per call
		want           report.Status
	}{
		{"tokenbucket", "allocates-every-call", 0.99, 1.01, report.Failed},
		{"gcra", "allocates-on-grant", 0.3, 0.7, report.Failed},
		{"slidingwindow", "chunked-history", 0.0009, 0.0012, report.Passed},
	} {
		t.Run(c.exercise+"/"+c.name, func(t *testing.T) {
			r, err := grader.Grade(context.Background(), grader.Options{
				Root: root(t), Exercises: []string{c.exercise}, Seed: grader.DefaultSeed, BenchOnly: true,
				Replace: map[string]string{c.exercise: filepath.Join("testdata", "fixtures", c.exercise, c.name)},
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range r.Exercises[0].Checks {
				if k.Kind != report.Benchmark {
					continue
				}
				if k.AllocsPerOp == nil || *k.AllocsPerOp < c.lo || *k.AllocsPerOp > c.hi {
					t.Errorf("%s: %v allocations per call, want %v to %v (%s)", k.ID, k.AllocsPerOp, c.lo, c.hi, k.Message)
				}
				if k.Status != c.want && k.Status != report.Skipped {
					t.Errorf("%s: %s, want %s (%s)", k.ID, k.Status, c.want, k.Message)
				}
				t.Logf("%s: %s", k.ID, k.Message)
			}
		})
	}
}
