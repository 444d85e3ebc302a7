package tokenbucket

import (
	"math/rand"
	"testing"

	"ratelab/grader/check"
	"ratelab/grader/check/checktest"
	"ratelab/grader/model"
	"ratelab/grader/report"
)

// TestSuite runs the tests every suite gets (see checktest.Run).
func TestSuite(t *testing.T) {
	checktest.Run(t, Checks, func(domain) float64 { return 3 }, replay)
}

// TestFractionalDomainReachesTheTrap checks that the fractional-tokens
// domain really makes many sub-token steps that add up to whole tokens:
// without them the check could not fail for a bucket that rounds.
func TestFractionalDomainReachesTheTrap(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	granted := 0
	for range 200 {
		s := fractionalDomain.Gen(r, 100)
		m := model.NewBucket(s.Setup.Capacity, s.Setup.Rate, s.Setup.Start)
		latest := s.Setup.Start
		for i, o := range s.Ops {
			latest += o.Wait
			if m.TryAcquire(latest, o.N) && i > 0 {
				granted++
			}
		}
	}
	if granted < 100 {
		t.Errorf("only %d tokens granted after the drain in 200 scripts: the domain rarely reaches a whole token", granted)
	}
}

func TestExplainBlamesTheStartOnlyForTheFirstCallAtTheStart(t *testing.T) {
	one := check.Trace{Steps: make([]report.Step, 1)}
	two := check.Trace{Steps: make([]report.Step, 2)}
	s := script{Setup: setup{Capacity: 1, Rate: 1, Start: 7}, Ops: []op{{N: 1}, {When: check.When{Wait: 5}, N: 1}}}
	if got := explain(s, one, "why"); got != startsFull {
		t.Errorf("first call at the start: explain = %q, want startsFull", got)
	}
	if got := explain(s, two, "why"); got != "why" {
		t.Errorf("failure on the second call: explain = %q, want the check's own", got)
	}
	later := script{Setup: s.Setup, Ops: []op{{When: check.When{Wait: 1}, N: 1}}}
	if got := explain(later, one, "why"); got != "why" {
		t.Errorf("first call after the start: explain = %q, want the check's own", got)
	}
}

// TestOverflowNeutraliser checks that the overflow trap's neutraliser
// scales huge scripts into ones no overflow mistake answers wrong, while
// the other mistakes still show on them.
func TestOverflowNeutraliser(t *testing.T) {
	checktest.Neutralises(t, Checks, "overflow", "overflow", 0.8)
}
