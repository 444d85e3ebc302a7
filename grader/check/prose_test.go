package check

import (
	"strings"
	"testing"

	"ratelab/grader/report"
)

const twoChecks = `[
	{"name": "exactness", "title": "Agrees", "kind": "property", "pitfall": "exactness", "points": 5, "hint": "Replay it.", "why": "It must agree."},
	{"name": "budget", "title": "Fast", "kind": "benchmark", "pitfall": "budget", "points": 2, "hint": "Do less."}
]`

// whyRun is a Runner whose outcome's message is the why it was given.
func whyRun(why string) func(int64) Outcome {
	return func(int64) Outcome { return Outcome{Status: report.Failed, Message: why} }
}

func TestAssembleFollowsTheProse(t *testing.T) {
	s, err := Assemble("ex", []byte(twoChecks), nil, map[string]Runner{
		"budget":    Fixed(func() Outcome { return Pass() }),
		"exactness": whyRun,
	})
	if err != nil {
		t.Fatalf("Assemble: %v", err)
	}
	want := []Check{
		{ID: "ex/exactness", Title: "Agrees", Kind: report.Property, Pitfall: "exactness", Points: 5, Hint: "Replay it."},
		{ID: "ex/budget", Title: "Fast", Kind: report.Benchmark, Pitfall: "budget", Points: 2, Hint: "Do less."},
	}
	if len(s.Checks) != len(want) {
		t.Fatalf("Assemble made %d checks, want %d", len(s.Checks), len(want))
	}
	for i, c := range s.Checks {
		w := want[i]
		if c.ID != w.ID || c.Title != w.Title || c.Kind != w.Kind || c.Pitfall != w.Pitfall || c.Points != w.Points || c.Hint != w.Hint {
			t.Errorf("check %d = %+v, want %+v", i, c, w)
		}
	}
	if o := s.Checks[0].Run(1); o.Message != "It must agree." {
		t.Errorf("exactness ran with why %q, want %q", o.Message, "It must agree.")
	}
	if o := s.Checks[1].Run(1); o.Status != report.Passed {
		t.Errorf("budget = %s, want passed", o.Status)
	}
}

func TestAssembleRefusesMismatches(t *testing.T) {
	both := map[string]Runner{"exactness": whyRun, "budget": whyRun}
	for _, c := range []struct {
		name, prose string
		runs        map[string]Runner
		want        string
	}{
		{"no run", twoChecks, map[string]Runner{"exactness": whyRun}, `check "budget" has no code`},
		{"no prose", twoChecks, map[string]Runner{"exactness": whyRun, "budget": whyRun, "overflow": whyRun}, `check "overflow" has code but no prose`},
		{"twice", `[{"name": "budget", "title": "F", "kind": "benchmark", "pitfall": "budget", "points": 2, "hint": "h"}, {"name": "budget", "title": "F", "kind": "benchmark", "pitfall": "budget", "points": 2, "hint": "h"}]`, both, `"budget" is there twice`},
		{"unknown field", `[{"name": "budget", "titel": "F"}]`, both, `unknown field "titel"`},
		{"bad kind", `[{"name": "budget", "title": "F", "kind": "speed", "pitfall": "budget", "points": 2, "hint": "h"}]`, both, `kind "speed"`},
		{"no points", `[{"name": "budget", "title": "F", "kind": "benchmark", "pitfall": "budget", "hint": "h"}]`, both, `points 0`},
		{"no hint", `[{"name": "budget", "title": "F", "kind": "benchmark", "pitfall": "budget", "points": 2}]`, both, `needs a title, a pitfall and a hint`},
		{"property without why", `[{"name": "exactness", "title": "A", "kind": "property", "pitfall": "exactness", "points": 5, "hint": "h"}]`, both, `property without a why`},
		{"no name", `[{"title": "A", "kind": "case", "pitfall": "exactness", "points": 5, "hint": "h"}]`, both, `check 1 has no name`},
		{"not a list", `{}`, both, `cannot unmarshal`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Assemble("ex", []byte(c.prose), nil, c.runs)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "ex's checks.json: ") {
				t.Errorf("Assemble = %v, want an error about ex's checks.json containing %q", err, c.want)
			}
		})
	}
}

func TestNewSuitePanicsOnAMismatch(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Error("NewSuite did not panic on a check without code")
		}
	}()
	NewSuite("ex", []byte(twoChecks), nil, map[string]Runner{"exactness": whyRun})
}
