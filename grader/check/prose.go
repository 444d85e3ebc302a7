package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"ratelab/grader/report"
)

// Prose is what one check says, kept apart from its code: each suite
// embeds a checks.json holding a list of them, in the order the report
// shows the checks, so that a course author edits the words without
// reading the code, and a suite's Go holds only what runs.
type Prose struct {
	Name    string      `json:"name"`    // the check's id after "<exercise>/"
	Title   string      `json:"title"`   // Check.Title
	Kind    report.Kind `json:"kind"`    // "property", "case" or "benchmark"
	Pitfall string      `json:"pitfall"` // Check.Pitfall
	Points  float64     `json:"points"`  // Check.Points
	Hint    string      `json:"hint"`    // Check.Hint
	// Why explains, in the learner's terms, what a failure means (see
	// Fail). A property needs one; a check whose code explains its own
	// failures (a validation, a benchmark) has none.
	Why string `json:"why,omitempty"`
}

// Runner makes a check's Run from its prose's why.
type Runner func(why string) func(seed int64) Outcome

// Fixed is the Runner of a check that needs no seed and explains its
// failures itself (a validation case, a benchmark).
func Fixed(run func() Outcome) Runner {
	return func(string) func(int64) Outcome { return func(int64) Outcome { return run() } }
}

// Scripted is the Runner of a case: the fixed script s, replayed by replay
// (see Case).
func Scripted[S, O any](s Script[S, O], replay func(Script[S, O]) Trace) Runner {
	return func(why string) func(int64) Outcome {
		return func(int64) Outcome { return Case(s, replay, why) }
	}
}

// Properties returns the Runners of a suite's properties, by check name:
// for each domain, the property that property makes of it for impl (a
// suite passes its domain type's method, e.g. domain.property), run with
// the check's seed and why.
func Properties[D, I, S, O any](domains map[string]D, impl I, property func(D, I) Property[S, O]) map[string]Runner {
	out := make(map[string]Runner, len(domains))
	for name, d := range domains {
		out[name] = func(why string) func(int64) Outcome { return property(d, impl).Runs(why) }
	}
	return out
}

// ParseProse reads a suite's checks.json: a list of Prose, each with a
// name used once, a known kind, a title, a pitfall, a hint and points
// above 0, and, for a property, a why. Unknown fields are errors, so a
// misspelt one is not silently dropped.
func ParseProse(data []byte) ([]Prose, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var ps []Prose
	if err := dec.Decode(&ps); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, p := range ps {
		switch {
		case p.Name == "":
			return nil, fmt.Errorf("check %d has no name", i+1)
		case seen[p.Name]:
			return nil, fmt.Errorf("check %q is there twice", p.Name)
		case !slices.Contains([]report.Kind{report.Property, report.Case, report.Benchmark}, p.Kind):
			return nil, fmt.Errorf("check %q: kind %q is none of property, case, benchmark", p.Name, p.Kind)
		case p.Title == "" || p.Pitfall == "" || p.Hint == "":
			return nil, fmt.Errorf("check %q needs a title, a pitfall and a hint", p.Name)
		case p.Points <= 0:
			return nil, fmt.Errorf("check %q: points %v, want more than 0", p.Name, p.Points)
		case p.Kind == report.Property && p.Why == "":
			return nil, fmt.Errorf("check %q is a property without a why", p.Name)
		}
		seen[p.Name] = true
	}
	return ps, nil
}

// Assemble builds exercise's suite from its prose (checks.json) and its
// runs, by check name: every check of the prose needs a run, and every run
// its prose. The checks come in the prose's order.
func Assemble(exercise string, prose []byte, notStarted func() bool, runs map[string]Runner) (Suite, error) {
	ps, err := ParseProse(prose)
	if err != nil {
		return Suite{}, fmt.Errorf("%s's checks.json: %w", exercise, err)
	}
	s := Suite{Exercise: exercise, NotStarted: notStarted, Checks: make([]Check, len(ps))}
	for i, p := range ps {
		run, ok := runs[p.Name]
		if !ok {
			return Suite{}, fmt.Errorf("%s's checks.json: check %q has no code to run it", exercise, p.Name)
		}
		s.Checks[i] = Check{
			ID: exercise + "/" + p.Name, Title: p.Title, Kind: p.Kind, Pitfall: p.Pitfall,
			Points: p.Points, Hint: p.Hint, Run: run(p.Why),
		}
	}
	for name := range runs {
		if !slices.ContainsFunc(ps, func(p Prose) bool { return p.Name == name }) {
			return Suite{}, fmt.Errorf("%s's checks.json: check %q has code but no prose", exercise, name)
		}
	}
	return s, nil
}

// NewSuite is Assemble for a suite's own, embedded prose: a mismatch is a
// mistake in the grader, found by the suite's tests (every one builds its
// suite), so it panics.
func NewSuite(exercise string, prose []byte, notStarted func() bool, runs map[string]Runner) Suite {
	s, err := Assemble(exercise, prose, notStarted, runs)
	if err != nil {
		panic(err)
	}
	return s
}
