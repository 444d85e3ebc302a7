package check

import (
	"strings"

	"ratelab/grader/report"
)

// Suite is every check of one exercise.
type Suite struct {
	Exercise string
	// NotStarted reports whether the implementation is still the stub: its
	// constructor, or every method, panics with the NotImplemented phrase.
	NotStarted func() bool
	Checks     []Check
	// Mistakes are the suite's error models, by name (see Mistake); with
	// them, Judge settles what the checks' findings cost.
	Mistakes []Named
	// Refutes, if set, reports whether the implementation shows, on scripts
	// drawn with seed, that it does not make the named mistake (see
	// Parts.Suite): Judge names no mistake it refutes.
	Refutes func(mistake string, seed int64) bool
	// PassSome, if set, reports whether the models of mistakes answer
	// right some scripts of the named check's domain (see Judge).
	PassSome func(check string, mistakes []string) bool
	// Reproduces, if set, reports whether the models of mistakes give
	// every answer the implementation gives over the whole of some script
	// of the named check's domain that it answers wrong (see Judge).
	Reproduces func(check string, mistakes []string, seed int64) bool
	// Plain, if set, returns how the implementation answers plain
	// scripts (the exactness check's) drawn with seed (see Parts.plain,
	// Judge).
	Plain func(seed int64) Plain
	// Budget is the speed budget of the suite's budget check; nil if it
	// has none.
	Budget *Budget
}

// Budget is a suite's speed budget, as the stub's docs state it (see
// internal/stubdoc): "<What> must take at most <Ns> ns per <Per> and
// allocate nothing in steady state".
type Budget struct {
	Ns float64 // the most one timed iteration of the benchmark's loop may take
	Iteration
}

// Iteration words one iteration of a benchmark's loop for the stub's docs.
type Iteration struct {
	// What the iteration does, with the setting it is timed in: the
	// subject of "must take at most", such as "Admit, among 1,000 open
	// sessions,".
	What string
	// Per is what an iteration is: "call", or "pair" when it makes two.
	Per string
}

// MissingDomains returns the names (the part of the id after the slash) of
// s's property checks that have no entry in domains: a suite's tests keep
// such a table of its generators, and a check left out of it would go
// untested.
func MissingDomains[D any](s Suite, domains map[string]D) []string {
	var out []string
	for _, c := range s.Checks {
		name := c.ID[strings.IndexByte(c.ID, '/')+1:]
		if _, ok := domains[name]; c.Kind == report.Property && !ok {
			out = append(out, name)
		}
	}
	return out
}
