package grader

import (
	"fmt"
	"strings"

	"ratelab/grader/check"
	"ratelab/grader/report"
	brsuite "ratelab/grader/suite/breaker"
	fqsuite "ratelab/grader/suite/fairqueue"
	gwsuite "ratelab/grader/suite/gateway"
	gcrasuite "ratelab/grader/suite/gcra"
	govsuite "ratelab/grader/suite/governor"
	g2suite "ratelab/grader/suite/gradient2"
	hiersuite "ratelab/grader/suite/hierarchy"
	swsuite "ratelab/grader/suite/slidingwindow"
	thsuite "ratelab/grader/suite/throttle"
	tbsuite "ratelab/grader/suite/tokenbucket"
	"ratelab/lab/course"
)

// gradable is what the grader knows of one exercise besides its adapter
// (adapter/<id>, see adapters.go); its id, week and title come from the
// course catalogue (package course).
type gradable struct {
	// suite builds the exercise's checks over the implementation a Remote
	// serves; with a nil Remote it only lists them.
	suite func(check.Remote) check.Suite
}

// registry holds every gradable exercise: the list of gradable ids and the
// plan of checks come from here. An exercise listed here has an adapter
// (TestEveryExerciseHasAnAdapter).
var registry = map[string]gradable{
	"tokenbucket":   {tbsuite.Checks.Suite},
	"gcra":          {gcrasuite.Checks.Suite},
	"slidingwindow": {swsuite.Checks.Suite},
	"governor":      {govsuite.Checks.Suite},
	"gateway":       {gwsuite.Checks.Suite},
	"gradient2":     {g2suite.Checks.Suite},
	"hierarchy":     {hiersuite.Checks.Suite},
	"fairqueue":     {fqsuite.Checks.Suite},
	"throttle":      {thsuite.Checks.Suite},
	"breaker":       {brsuite.Checks.Suite},
}

// Plan lists the checks of exercise id, none of them run yet.
func Plan(id string) ([]report.Check, error) {
	e, ok := registry[id]
	if !ok {
		return nil, fmt.Errorf("unknown exercise %q (the exercises are %s)", id, gradableList())
	}
	s := e.suite(nil)
	out := make([]report.Check, len(s.Checks))
	for i, c := range s.Checks {
		out[i] = c.Result(check.Outcome{Status: report.Skipped})
	}
	return out, nil
}

// Budget returns exercise id's speed budget, as its stub's docs state it;
// nil if id has no budget check or is not gradable.
func Budget(id string) *check.Budget {
	e, ok := registry[id]
	if !ok {
		return nil
	}
	return e.suite(nil).Budget
}

// Gradable returns the exercises the grader has a suite for, in course order.
func Gradable() []course.Exercise {
	var out []course.Exercise
	for _, e := range course.Exercises() {
		if _, ok := registry[e.ID]; ok {
			out = append(out, e)
		}
	}
	return out
}

func gradableList() string {
	var ids []string
	for _, e := range Gradable() {
		ids = append(ids, e.ID)
	}
	return strings.Join(ids, ", ")
}
