package check

import (
	"slices"
	"strings"
	"testing"

	"ratelab/grader/report"
)

const tallyChecks = `[
	{"name": "sum", "title": "Sums", "kind": "property", "pitfall": "sum", "points": 3, "hint": "Add.", "why": "It must add."},
	{"name": "args", "title": "Arguments", "kind": "case", "pitfall": "args", "points": 1, "hint": "Check."},
	{"name": "start", "title": "Starts", "kind": "case", "pitfall": "start", "points": 1, "hint": "Start."}
]`

// tallyParts are the parts of a toy suite over a tally: its implementation
// is a name, which Remote makes "impl", and which the fixed check and the
// case hand on to their outcome's message.
func tallyParts() Parts[string, tallyDomain, uint64, uint64] {
	named := func(impl string) Outcome { return Outcome{Status: report.Passed, Message: impl} }
	return Parts[string, tallyDomain, uint64, uint64]{
		Exercise: "tally", Prose: []byte(tallyChecks),
		API: API[string]{
			Remote:     func(Remote) string { return "impl" },
			NotStarted: func(impl string) bool { return impl == "stub" },
		},
		Domains:  map[string]tallyDomain{"sum": {}},
		Property: func(d tallyDomain, _ string) Property[uint64, uint64] { return tallyProperty(d) },
		Fixed:    map[string]func(string) Outcome{"args": named},
		Runs: func(impl string) map[string]Runner {
			return map[string]Runner{"start": Fixed(func() Outcome { return named("start " + impl) })}
		},
	}
}

func TestPartsPutTheSuiteTogether(t *testing.T) {
	s := tallyParts().Suite(nil)
	var ids []string
	for _, c := range s.Checks {
		ids = append(ids, c.ID)
	}
	if want := []string{"tally/sum", "tally/args", "tally/start"}; !slices.Equal(ids, want) {
		t.Fatalf("checks %v, want %v", ids, want)
	}
	if s.NotStarted() {
		t.Error("NotStarted() = true for impl, want false")
	}
	if o := s.Checks[0].Run(1); o.Status != report.Failed || o.Counterexample == nil {
		t.Errorf("sum = %s %q, want failed with a counterexample (the tally adds 7 as 6)", o.Status, o.Message)
	}
	if o := s.Checks[1].Run(1); o.Message != "impl" {
		t.Errorf("args ran on %q, want the implementation Remote made, impl", o.Message)
	}
	if o := s.Checks[2].Run(1); o.Message != "start impl" {
		t.Errorf("start = %q, want %q", o.Message, "start impl")
	}
}

func TestPartsRunsReplaceAProperty(t *testing.T) {
	p := tallyParts()
	p.Runs = func(string) map[string]Runner {
		return map[string]Runner{"sum": Fixed(Pass), "start": Fixed(Pass)}
	}
	if o := p.Suite(nil).Checks[0].Run(1); o.Status != report.Passed {
		t.Errorf("sum = %s %q, want passed: Runs' sum replaces the property", o.Status, o.Message)
	}
}

func TestPartsBudgetCheckOnlyWithABudget(t *testing.T) {
	p := tallyParts()
	p.Prose = []byte(strings.TrimSuffix(tallyChecks, "]") + `,
	{"name": "budget", "title": "Fast", "kind": "benchmark", "pitfall": "budget", "points": 2, "hint": "Do less."}]`)
	p.BudgetNs = 40
	s := p.Suite(nil)
	if c := s.Checks[len(s.Checks)-1]; c.ID != "tally/budget" || c.Kind != report.Benchmark {
		t.Errorf("last check %s (%s), want tally/budget (benchmark)", c.ID, c.Kind)
	}
	p.BudgetNs = 0
	defer func() {
		if recover() == nil {
			t.Error("no budget, and a budget check in the prose: NewSuite did not panic")
		}
	}()
	p.Suite(nil)
}
