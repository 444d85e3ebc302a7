package check

import (
	"strings"
	"testing"
	"time"

	"ratelab/grader/report"
	"ratelab/grader/wire"
)

// timedRemote answers Bench with fixed costs per call for each loop and a
// digest that matches expected; Call is not used by Bench.
type timedRemote struct{ learner, reference time.Duration }

func (r timedRemote) Call(wire.Obj, string, []any, ...any) { panic("not used") }

func (r timedRemote) Bench(loop string, n int) BenchRun {
	per := r.learner
	if loop == "reference" {
		per = r.reference
	}
	return BenchRun{Digest: uint64(n), Time: per * time.Duration(n), Clock: "test clock"}
}

func TestBenchVerdicts(t *testing.T) {
	for _, c := range []struct {
		name               string
		learner, reference time.Duration
		want               report.Status
		says               string
	}{
		{"within the budget", 20, 18, report.Passed, "Fastest of"},
		{"over it, the reference within", 60, 18, report.Failed, "over the 40 ns budget"},
		// A machine so busy that the reference is over the budget too
		// cannot blame the code.
		{"over it, the reference too", 170, 180, report.Skipped, "too busy"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := Bench{BudgetNs: 40, Remote: timedRemote{c.learner, c.reference}, Expected: func(n int) uint64 { return uint64(n) }}.Run()
			if o.Status != c.want || !strings.Contains(o.Message, c.says) {
				t.Errorf("%s: %q; want %s saying %q", o.Status, o.Message, c.want, c.says)
			}
		})
	}
}
