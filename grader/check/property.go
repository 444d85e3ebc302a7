package check

import (
	"math/rand"
	"slices"
	"strconv"
	"strings"

	"ratelab/grader/report"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

// Script is one generated input of a property: how to build the limiter,
// then the calls to make on it.
type Script[S, O any] struct {
	Setup S
	Ops   []O
	// Full asks the replay for every call of the script, past the first
	// whose answer differs from the model's (see Trace.Full): Judge
	// compares a learner's whole script with a mistake's model.
	Full bool
}

// String is brief on purpose: gopter formats every script it generates or
// shrinks with %+v and never shows it (a failure is reported from its
// trace), and formatting every call of every script by reflection was 7%
// of a grading's CPU time.
func (s Script[S, O]) String() string {
	return "a script of " + strconv.Itoa(len(s.Ops)) + " calls"
}

// Property checks an implementation against a model on generated scripts.
//
// gopter drives it: Gen draws scripts from gopter's seeded source, and the
// shrinker (built here, because gopter's Map and FlatMap would drop it)
// removes calls and simplifies values until no smaller script still fails.
// Scripts are replayed from scratch on every attempt, so Replay must build
// a fresh implementation each time.
type Property[S, O any] struct {
	Tests       int // successful scripts required to pass; 0 means 200
	Gen         func(r *rand.Rand, size int) Script[S, O]
	ShrinkSetup func(S) []S // simpler setups, most aggressive first; nil: none
	ShrinkOp    func(O) []O // simpler calls, most aggressive first; nil: none
	// Valid, if set, reports whether a script belongs to the property's
	// domain; the shrinker never leaves it.
	Valid  func(Script[S, O]) bool
	Replay func(Script[S, O]) Trace
	// Merge, if set, folds a call into the one after it (e.g. adding its
	// wait to the next call's), so that a call whose only effect was to
	// move time can go; ok is false where they cannot be folded.
	Merge func(a, b O) (merged O, ok bool)
	// Explain, if set, may replace the check's explanation for a failing
	// script and its trace (e.g. to describe the numbers of the script
	// shown); step i of the trace is call i of the script.
	Explain func(s Script[S, O], t Trace, why string) string
	// Diagnose, if set, names the mistakes whose models explain a failing
	// trace (see Diagnoser); without it, no failure is explained. The
	// property counts every failure, shrinks each keeping the mistakes
	// that explain it (some of them may go, none may come; an unexplained
	// failure stays unexplained), and reports up to MaxFindings failures,
	// each one telling more than those before it (see isNew).
	Diagnose func(Script[S, O], Trace) []string
	// Caused, if set, reports whether the difference of a failing script
	// is caused by the check's trap (see Trap, Parts.caused): a failure
	// no mistake explains keeps that through shrinking, so that a
	// difference the trap causes is never traded for a smaller one it
	// does not, and the property looks for one of each.
	Caused func(Script[S, O]) bool
}

// MaxFindings bounds the failures one property reports.
const MaxFindings = 3

// failure is what kind of failure a trace ends on. Shrinking keeps it: a
// smaller script that fails another way (a panic instead of a wrong
// answer, in another method) is not the same failure, and would be blamed
// on a mistake the learner's code may not make.
type failure struct {
	panicked bool
	hung     bool   // the last call did not return (see Hang)
	call     string // the method of the last step, or "" for the setup
}

func failureOf(t Trace) failure {
	f := failure{panicked: t.Panic != nil, hung: t.Hung()}
	if n := len(t.Steps); n > 0 {
		f.call = callName(t.Steps[n-1].Call)
	}
	return f
}

// MaxShrinks bounds the shrinking steps of one failure.
const MaxShrinks = 400

// Run checks the property with the given seed and returns every failure
// it found (see Found), each shrunk; why explains them (see Fail).
func (p Property[S, O]) Run(seed int64, why string) Outcome {
	var found []Finding
	passing, hangs := 0, 0
	for round := range MaxFindings {
		f, ok := p.search(seed+int64(round)*7919, why, found, &passing, &hangs)
		if !ok {
			break
		}
		found = append(found, f)
	}
	o := Found(found)
	o.Passing = passing
	return o
}

// Found is the outcome of a check that found fs: passed if none, else the
// first one's status, message and counterexample, with every finding.
func Found(fs []Finding) Outcome {
	if len(fs) == 0 {
		return Pass()
	}
	return Outcome{Status: fs[0].Status, Message: fs[0].Message(), Counterexample: fs[0].Counterexample, Findings: fs}
}

// kind is what a shrunk failure must keep of the first: a panic in the
// same method stays one; a wrong answer keeps the mistakes that explain
// it, or, if none does, stays unexplained in the same method.
type kind struct {
	failure
	mistakes string
	caused   bool // a failure no mistake explains, caused by the check's trap
}

func (p Property[S, O]) kindOf(s Script[S, O], t Trace) (kind, []string) {
	var d []string
	if p.Diagnose != nil {
		d = p.Diagnose(s, t)
	}
	k := kind{failure: failureOf(t), mistakes: strings.Join(d, ",")}
	if len(d) > 0 {
		k.call = "" // an explained failure may move to another method
	} else if p.Caused != nil && t.Panic == nil {
		k.caused = p.Caused(Upto(s, t))
	}
	return k, d
}

// isNew reports whether a failure of kind k, explained by the mistakes d,
// tells more than found does: a panic in a method that has not panicked,
// a failure no mistake explains where none was found, or one whose
// mistakes do not include all of those of a failure found (a failure that
// one of several mistakes explains is then told apart from the others).
func isNew(k kind, d []string, found []Finding) bool {
	for _, f := range found {
		switch {
		case k.hung:
			if f.Status == report.Timeout && callName(lastCall(f)) == k.call {
				return false
			}
		case k.panicked:
			if f.Status == report.Error && callName(lastCall(f)) == k.call {
				return false
			}
		case f.Status != report.Failed:
		case len(d) == 0:
			if len(f.Mistakes) == 0 && f.caused == k.caused {
				return false
			}
		case len(f.Mistakes) > 0 && !slices.ContainsFunc(f.Mistakes, func(m string) bool { return !slices.Contains(d, m) }):
			return false
		}
	}
	return true
}

func lastCall(f Finding) string {
	if ce := f.Counterexample; ce != nil && len(ce.Steps) > 0 {
		return ce.Steps[len(ce.Steps)-1].Call
	}
	return ""
}

// MaxHangs bounds the replays of one property that meet a call that does
// not return (see Hang): each costs the CPU time a call may take. The
// first that tells something new is a finding, kept as drawn (shrinking
// it would cost that time again for every smaller script that still
// hangs), cut after the call that did not return; once MaxHangs have
// been met, the property stops looking, and what it found stands.
const MaxHangs = 2

// search looks for one failure that found does not hold yet (see isNew),
// with the round's seed, and shrinks it keeping its kind; hangs counts
// the replays that met a call that did not return (see MaxHangs).
func (p Property[S, O]) search(seed int64, why string, found []Finding, passing, hangs *int) (Finding, bool) {
	if *hangs >= MaxHangs {
		return Finding{}, false
	}
	tests := p.Tests
	if tests == 0 {
		tests = 200
	}
	if len(found) > 0 {
		// Looking for what else fails costs a learner with one mistake a
		// whole run: a quarter of one tells most second mistakes apart.
		tests = max(1, tests/4)
	}
	params := gopter.DefaultTestParametersWithSeed(seed)
	params.MinSuccessfulTests = tests
	params.MaxShrinkCount = MaxShrinks
	var hung *Trace // the trace of the failure found, if a call of it did not return
	shrinker := func(v any) gopter.Shrink {
		if hung != nil {
			return gopter.NoShrink
		}
		return p.shrinker(v)
	}
	gen := func(gp *gopter.GenParameters) *gopter.GenResult {
		res := gopter.NewGenResult(p.Gen(gp.Rng, gp.MaxSize), shrinker)
		if p.Valid != nil {
			res.Sieve = func(v any) bool { return p.Valid(v.(Script[S, O])) }
		}
		return res
	}
	var first *kind
	var firstSet []string
	var failed *Script[S, O]
	fails := func(s Script[S, O]) bool {
		if *hangs >= MaxHangs {
			return false // no more replays: see MaxHangs
		}
		t := p.Replay(s)
		if t.Hung() {
			*hangs++
			if first != nil || !isNew(kind{failure: failureOf(t)}, nil, found) {
				return false
			}
			k := kind{failure: failureOf(t)}
			first, hung = &k, &t
			return true
		}
		if !t.Bad {
			if first == nil {
				*passing++
			}
			return false
		}
		if first != nil && first.mistakes == "" && !first.caused && failureOf(t) != first.failure {
			// An unexplained failure shrinks to the same failure, itself
			// unexplained: this one is another, and diagnosing it would
			// replay every mistake's model for nothing.
			return false
		}
		k, d := p.kindOf(s, t)
		if first != nil {
			// Shrinking keeps the failure's kind; an explained one may
			// also lose mistakes that explain it, never gain one: a
			// smaller script that fewer mistakes explain tells more.
			if k == *first {
				return true
			}
			if k.failure == first.failure && len(d) > 0 && len(firstSet) > 0 && !slices.ContainsFunc(d, func(m string) bool { return !slices.Contains(firstSet, m) }) {
				*first, firstSet = k, d
				return true
			}
			return false
		}
		if !isNew(k, d, found) {
			return false
		}
		first, firstSet = &k, d
		return true
	}
	property := prop.ForAll(func(s Script[S, O]) bool {
		if !fails(s) {
			return true
		}
		failed = &s
		return false
	}, gopter.Gen(gen))
	res := property.Check(params)
	if res.Passed() || first == nil {
		return Finding{}, false
	}
	if len(res.Args) > 0 {
		if s, ok := res.Args[len(res.Args)-1].Arg.(Script[S, O]); ok {
			failed = &s
		}
	}
	if hung != nil {
		s := Upto(*failed, *hung)
		f := finding(*hung, why)
		f.Diagnosed, f.script, f.trace = true, s, *hung
		return f, true
	}
	t := p.Replay(*failed)
	k, d := p.kindOf(*failed, t)
	if !t.Bad || k != *first {
		return Finding{Status: report.Error, Head: "the grader could not reproduce a failure it saw; please report this with the seed"}, true
	}
	if p.Explain != nil {
		why = p.Explain(*failed, t, why)
	}
	f := finding(t, why)
	f.Mistakes, f.Diagnosed = d, true
	f.script, f.trace, f.caused = *failed, t, k.caused
	return f, true
}

// shrinker lists simpler scripts lazily, most aggressive first: cut
// everything after the first bad step, drop runs of calls (halves, then
// quarters, down to single calls), fold a call into the next, simplify
// each call, simplify the setup.
func (p Property[S, O]) shrinker(v any) gopter.Shrink {
	s := v.(Script[S, O])
	var queue []Script[S, O]
	stage := 0
	chunk := len(s.Ops) / 2
	opIndex := 0
	next := func() (any, bool) {
		for len(queue) == 0 {
			switch stage {
			case 0: // cut the tail after the first bad step
				if t := p.Replay(s); t.Bad && len(t.Steps) < len(s.Ops) {
					queue = append(queue, Script[S, O]{Setup: s.Setup, Ops: s.Ops[:len(t.Steps)]})
				}
				stage++
			case 1: // remove chunks of calls
				if chunk < 1 {
					stage++
					continue
				}
				for i := 0; i+chunk <= len(s.Ops); i += chunk {
					ops := append(append([]O(nil), s.Ops[:i]...), s.Ops[i+chunk:]...)
					queue = append(queue, Script[S, O]{Setup: s.Setup, Ops: ops})
				}
				chunk /= 2
			case 2: // fold a call into the next one
				if p.Merge != nil {
					for i := 0; i+1 < len(s.Ops); i++ {
						if m, ok := p.Merge(s.Ops[i], s.Ops[i+1]); ok {
							ops := append(append([]O(nil), s.Ops[:i]...), m)
							ops = append(ops, s.Ops[i+2:]...)
							queue = append(queue, Script[S, O]{Setup: s.Setup, Ops: ops})
						}
					}
				}
				stage++
			case 3: // simplify one call at a time
				if p.ShrinkOp == nil || opIndex >= len(s.Ops) {
					stage++
					continue
				}
				for _, o := range p.ShrinkOp(s.Ops[opIndex]) {
					ops := append([]O(nil), s.Ops...)
					ops[opIndex] = o
					queue = append(queue, Script[S, O]{Setup: s.Setup, Ops: ops})
				}
				opIndex++
			case 4: // simplify the setup
				if p.ShrinkSetup != nil {
					for _, st := range p.ShrinkSetup(s.Setup) {
						queue = append(queue, Script[S, O]{Setup: st, Ops: s.Ops})
					}
				}
				stage++
			default:
				return nil, false
			}
		}
		c := queue[0]
		queue = queue[1:]
		return c, true
	}
	return next
}
