package grader

import (
	"fmt"
	"strings"

	"ratelab/grader/check"
	"ratelab/grader/report"
	"ratelab/lab/course"
)

// suites (suites_gen.go) holds every gradable exercise's suite, by id:
// given a Remote, the checks of the implementation it serves; given nil,
// only their list. The list of gradable ids and the plan of checks come
// from it. An exercise's suite is in it by being in its folder,
// grader/suite/<id>, when make generate writes the file; an exercise in
// it has an adapter (TestEveryExerciseHasAnAdapter), of which its suite
// holds a generated copy for the reference (suite/<id>/reference_gen.go,
// see package refgen).
//
//go:generate go run ../internal/suitegen/write
//go:generate go run ../internal/refgen/write

// Plan lists the checks of exercise id, none of them run yet.
func Plan(id string) ([]report.Check, error) {
	e, ok := suites[id]
	if !ok {
		return nil, fmt.Errorf("unknown exercise %q (the exercises are %s)", id, gradableList())
	}
	s := e(nil)
	out := make([]report.Check, len(s.Checks))
	for i, c := range s.Checks {
		out[i] = c.Result(check.Outcome{Status: report.Skipped})
	}
	return out, nil
}

// Budget returns exercise id's speed budget, as its stub's docs state it;
// nil if id has no budget check or is not gradable.
func Budget(id string) *check.Budget { return listed(id).Budget }

// listed returns the checks of exercise id's suite, none of them run; a
// Suite with none if the grader does not know id.
func listed(id string) check.Suite {
	if s, ok := suites[id]; ok {
		return s(nil)
	}
	return check.Suite{}
}

// Gradable returns the exercises the grader has a suite for, in course order.
func Gradable() []course.Exercise {
	var out []course.Exercise
	for _, e := range course.Exercises() {
		if _, ok := suites[e.ID]; ok {
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
