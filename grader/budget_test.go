package grader_test

import (
	"os"
	"os/exec"
	"testing"
	"time"

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
