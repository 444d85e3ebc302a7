package check

import (
	"encoding/json"
	"maps"
	"math/rand"
	"slices"
	"strings"

	"ratelab/grader/report"
)

// API is how the grader's own process reaches an exercise's API I (its
// New, or a struct of its package functions): through a Remote, beside the
// reference, and in the benchmark's loop.
type API[I any] struct {
	// Remote adapts a Remote to I: every call I makes is a call in the
	// Remote's process.
	Remote func(Remote) I
	// NotStarted reports whether an implementation is still the stub (see
	// Suite.NotStarted).
	NotStarted func(I) bool
	// Ref is the reference solution, run in the grader's own process (the
	// budget check and checktest.Run need it; a suite with neither may
	// leave it out).
	Ref I
	// Loop is the benchmark's loop: a run on an implementation, its
	// traffic drawn from the run's seed, folded into a digest of its
	// decisions (see BenchLoop, Bench).
	Loop BenchLoop[I]
	// Record, if not nil, serves the reference in the grader's process,
	// recording: with it, the calls of every replay on a Remote that is
	// an Ahead are sent ahead (see Ahead, sendsAhead).
	Record func() Recorder
}

// Parts are what one exercise's suite is made of, before it meets an
// implementation: Suite puts them together for the implementation a
// Remote serves. I is the exercise's API as the suite sees it, D the
// suite's domain type, S and O its scripts' setup and call.
//
// Every suite in grader/suite declares its Parts once, as the exported
// variable Checks that the grader lists (suites_gen.go); the words of its
// checks (title, pitfall, points, hint, why) are the suite's embedded
// checks.json, and its properties' domains are listed by check name
// (ByName).
type Parts[I, D, S, O any] struct {
	Exercise string
	Prose    []byte // the suite's checks.json (see Assemble)
	API[I]
	// Domains are the properties' domains by check name, each made into
	// its property by Property (see Properties).
	Domains  map[string]D
	Property func(D, I) Property[S, O]
	// Fixed are the checks with no seed and no script of their own, by
	// name: argument or config validation.
	Fixed map[string]func(I) Outcome
	// Runs, if not nil, returns the suite's other checks by name, e.g.
	// cases (Scripted). A name it shares with a property replaces that
	// property's Runner.
	Runs func(I) map[string]Runner
	// Mistakes are the suite's error models (see Mistake), which Replay,
	// the suite's replay of a script on an implementation, runs. With them
	// every property and case counts each failure it finds, names the
	// mistakes that explain it, and the exercise is settled by
	// Suite.Judge; without them, checks keep to their traps.
	Mistakes []Mistake[I]
	Replay   func(I, Script[S, O]) Trace
	// Traps are the checks' traps by check name (see Trap), properties
	// and cases alike; exactness's is Always. A check without one keeps
	// every difference it finds (every script holds its trap).
	Traps map[string]Trap[S, O]
	// BudgetNs, if above 0, gives the suite a budget check: Loop timed in
	// the Remote's process against BudgetNs per iteration, beside the
	// reference's, each run on traffic of its own drawn from the grading's
	// seed, its decisions those of Loop on Ref in the grader's own process
	// on the same traffic (see Bench).
	BudgetNs float64
	// Iteration words what one iteration of Loop does, for the stub's
	// docs (see Budget).
	Iteration Iteration
}

// Suite returns the checks of the implementation r serves; a nil r only
// lists them (see NewSuite).
func (p Parts[I, D, S, O]) Suite(r Remote) Suite {
	var budget Runner
	if p.BudgetNs > 0 {
		budget = func(string) func(int64) Outcome {
			return func(seed int64) Outcome {
				expected := func(spec BenchSpec) uint64 { return Expect(p.Loop, p.Ref, spec) }
				return Bench{BudgetNs: p.BudgetNs, Remote: r, Seed: seed, Expected: expected}.Run()
			}
		}
	}
	return p.suite(p.Remote(r), budget, p.sendsAhead(r))
}

// SuiteOf returns the checks of impl, an implementation in the grader's
// own process (a mistake's model, in the suites' tests), its budget check
// skipped.
func (p Parts[I, D, S, O]) SuiteOf(impl I) Suite {
	return p.suite(impl, Fixed(func() Outcome { return Outcome{Status: report.Skipped, Message: "not timed in process"} }), nil)
}

// sendsAhead is how a suite sends the calls of its replays ahead (see
// Ahead): to, the Remote; rec, the reference recording; ref, the
// reference as the suite calls it, through rec.
type sendsAhead[I any] struct {
	to  Ahead
	rec Recorder
	ref I
}

// sendsAhead returns how to send the calls of replays on r ahead, or nil
// if they are not sent ahead.
func (p Parts[I, D, S, O]) sendsAhead(r Remote) *sendsAhead[I] {
	to, ok := r.(Ahead)
	if !ok || p.Record == nil {
		return nil
	}
	rec := p.Record()
	return &sendsAhead[I]{to: to, rec: rec, ref: p.Remote(rec)}
}

// ahead returns replay, a replay on the Remote's implementation, with the
// calls of each script sent ahead first, as ref (the same replay on the
// reference) makes them, and, past an answer the reference does not give,
// as ref makes them given the answers the implementation gave; replay
// itself if a is nil.
func ahead[I, S, O any](a *sendsAhead[I], replay, ref func(Script[S, O]) Trace) func(Script[S, O]) Trace {
	if a == nil {
		return replay
	}
	return func(s Script[S, O]) Trace {
		base := a.to.Base()
		if base == 0 {
			return replay(s)
		}
		record := func(given []json.RawMessage) (calls, answers []json.RawMessage) {
			a.rec.Start(base)
			a.rec.Force(given)
			Call(func() Trace { return ref(s) })
			return a.rec.Recorded()
		}
		calls, answers := record(nil)
		a.to.SendAhead(calls, answers, record)
		defer a.to.EndAhead()
		return replay(s)
	}
}

// aheadRun returns run, a check's Runner on the Remote's implementation,
// with the calls of its whole run sent ahead first, as ref (the same
// Runner on the reference) makes them: a check the implementation passes
// as the reference does costs the other process a request or two, not one
// a script. Past an answer the reference does not give, its replays send
// their own calls ahead, if they do. It is run itself if a or ref is nil.
func aheadRun[I any](a *sendsAhead[I], run, ref Runner) Runner {
	if a == nil || ref == nil {
		return run
	}
	return func(why string) func(int64) Outcome {
		inner, onRef := run(why), ref(why)
		return func(seed int64) Outcome {
			return aheadAll(a, func() { onRef(seed) }, func() Outcome { return inner(seed) })
		}
	}
}

// aheadAll runs impl, which calls the Remote's implementation, with the
// calls that ref, the same on the reference, makes sent ahead first.
func aheadAll[I any](a *sendsAhead[I], ref func(), impl func() Outcome) Outcome {
	base := a.to.Base()
	if base == 0 {
		return impl()
	}
	a.rec.Start(base)
	Call(func() bool { ref(); return true })
	calls, answers := a.rec.Recorded()
	a.to.SendAhead(calls, answers, nil)
	defer a.to.EndAhead()
	return impl()
}

func (p Parts[I, D, S, O]) suite(impl I, budget Runner, a *sendsAhead[I]) Suite {
	var diagnose func(Script[S, O], Trace) []string
	if len(p.Mistakes) > 0 {
		diagnose = Diagnoser(p.Mistakes, p.Replay)
	}
	replay := func(s Script[S, O]) Trace { return p.Replay(impl, s) }
	if a != nil {
		replay = ahead(a, replay, func(s Script[S, O]) Trace { return p.Replay(a.ref, s) })
	}
	runs := make(map[string]Runner, len(p.Domains))
	for name, d := range p.Domains {
		runs[name] = func(why string) func(int64) Outcome {
			q := p.Property(d, impl)
			q.Diagnose = diagnose
			if a != nil {
				q.Replay = ahead(a, q.Replay, p.Property(d, a.ref).Replay)
			}
			q.Caused = p.caused(replay, name)
			return q.Runs(why)
		}
	}
	if p.Runs != nil {
		var onRef map[string]Runner
		if a != nil {
			onRef = p.Runs(a.ref)
		}
		for name, run := range p.Runs(impl) {
			runs[name] = diagnosed(aheadRun(a, run, onRef[name]), diagnose)
		}
	}
	for name, run := range runs {
		runs[name] = p.attributed(impl, replay, name, run)
	}
	for name, run := range p.Fixed {
		runs[name] = Fixed(func() Outcome { return Own(run(impl)) })
		if a != nil {
			runs[name] = aheadRun(a, runs[name], Fixed(func() Outcome { return run(a.ref) }))
		}
	}
	if p.BudgetNs > 0 {
		runs["budget"] = budget
	}
	s := NewSuite(p.Exercise, p.Prose, func() bool { return p.NotStarted(impl) }, runs)
	if p.BudgetNs > 0 {
		s.Budget = &Budget{Ns: p.BudgetNs, Iteration: p.Iteration}
	}
	for _, m := range p.Mistakes {
		s.Mistakes = append(s.Mistakes, m.Named())
	}
	if len(p.Mistakes) > 0 {
		s.Refutes = func(name string, seed int64) bool { return p.refutes(impl, replay, name, seed) }
		s.PassSome = p.passSome
		s.Reproduces = func(check string, mistakes []string, seed int64) bool {
			return p.reproduces(impl, replay, check, mistakes, seed)
		}
	}
	for i, c := range s.Checks {
		_, s.Checks[i].Own = p.Fixed[c.ID[len(p.Exercise)+1:]]
	}
	if len(p.Mistakes) > 0 {
		s.Plain = func(seed int64) Plain { return p.plain(impl, replay, seed) }
	}
	return s
}

// Own gives the failure of a check judged by its own table of calls (a
// validation) its finding: the check's own rule, broken by one of its
// calls, charged to no mistake (see Suite.Judge).
func Own(o Outcome) Outcome {
	if o.Status == report.Failed {
		o.Findings = []Finding{{Status: o.Status, Head: o.Message, Counterexample: o.Counterexample, Own: true, Diagnosed: true}}
		// No model is involved: the message names the call that broke
		// the check's rule, so the check carries no diagnosis.
		o.Diagnosis = ""
	}
	return o
}

// diagnosed wraps a case's Runner so that its findings name the mistakes
// that explain them (if diagnose is not nil).
func diagnosed[S, O any](run Runner, diagnose func(Script[S, O], Trace) []string) Runner {
	if diagnose == nil {
		return run
	}
	return func(why string) func(int64) Outcome {
		inner := run(why)
		return func(seed int64) Outcome {
			o := inner(seed)
			for i := range o.Findings {
				f := &o.Findings[i]
				if s, ok := f.script.(Script[S, O]); ok && !f.Diagnosed {
					f.Mistakes, f.Diagnosed = diagnose(s, f.trace), true
				}
			}
			return o
		}
	}
}

// RefuteScripts is how many scripts of each domain refutes draws.
const RefuteScripts = 50

// refutes reports whether impl gets right what the named mistake's model
// gets wrong: on some script drawn with seed from one of the domains, the
// mistake's model answers a call wrong before impl answers any wrong (or
// impl answers none wrong). Its code then does not make that mistake, even
// where the mistake's model happens to give every answer of a failing
// script, and Judge does not name it. A panic (the learner's code, or the
// child lost) refutes nothing.
func (p Parts[I, D, S, O]) refutes(impl I, replay func(Script[S, O]) Trace, name string, seed int64) (refuted bool) {
	i := slices.IndexFunc(p.Mistakes, func(m Mistake[I]) bool { return m.Name == name })
	if i < 0 {
		return false
	}
	defer func() {
		if recover() != nil {
			refuted = false
		}
	}()
	for _, dn := range slices.Sorted(maps.Keys(p.Domains)) {
		gen := p.Property(p.Domains[dn], impl).Gen
		r := rand.New(rand.NewSource(seed))
		for range RefuteScripts {
			s := gen(r, 50)
			mt, pn := Call(func() Trace { return p.Replay(p.Mistakes[i].Impl, s) })
			if pn != nil || !mt.Bad || mt.Panic != nil {
				continue
			}
			if t := replay(s); t.Panic == nil && (!t.Bad || len(t.Steps) > len(mt.Steps)) {
				return true
			}
		}
	}
	return false
}

// passSome reports whether the model of one of the named mistakes answers
// right one of RefuteScripts scripts of the named check's domain: if so,
// code that answered none right there is wrong beyond those mistakes.
func (p Parts[I, D, S, O]) passSome(check string, mistakes []string) bool {
	gen, ok := p.gen(check, p.Ref)
	if !ok {
		return false
	}
	for _, m := range p.Mistakes {
		if !slices.Contains(mistakes, m.Name) {
			continue
		}
		r := rand.New(rand.NewSource(1))
		for range RefuteScripts {
			s := gen(r, 50)
			if t, pn := Call(func() Trace { return p.Replay(m.Impl, s) }); pn == nil && !t.Bad {
				return true
			}
		}
	}
	return false
}

// reproduces reports whether the models of the named mistakes give every
// answer impl gives over the whole of at least half the scripts of the
// named check's domain that impl answers wrong (of RefuteScripts drawn
// with seed): past the first wrong answer too (see Script.Full). Code that
// makes one of those mistakes and nothing else is reproduced on every such
// script; code that is wrong beyond them on few or none (a bucket that
// refuses everything answers its first call as one that starts empty, and
// nothing after). Half, not all: code with two mistakes is reproduced by
// neither alone where both show, and that is not a third mistake.
func (p Parts[I, D, S, O]) reproduces(impl I, replay func(Script[S, O]) Trace, check string, mistakes []string, seed int64) (ok bool) {
	gen, found := p.gen(check, impl)
	if !found {
		return true
	}
	wrong, same := 0, 0
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	r := rand.New(rand.NewSource(seed))
	for range RefuteScripts {
		s := gen(r, 50)
		s.Full = true
		// A script that cannot be replayed whole (its calls refer to
		// answers the code did not give) says nothing either way.
		t, pn := Call(func() Trace { return replay(s) })
		if pn != nil || !t.Bad || t.Panic != nil {
			continue
		}
		wrong++
		for _, m := range p.Mistakes {
			if !slices.Contains(mistakes, m.Name) {
				continue
			}
			if mt, pn := Call(func() Trace { return p.Replay(m.Impl, s) }); pn == nil && mt.Panic == nil && sameAnswers(mt, t) {
				same++
				break
			}
		}
	}
	return 2*same >= wrong
}

// sameAnswers reports whether two traces of one script gave the same
// answer at every call.
func sameAnswers(a, b Trace) bool {
	return slices.EqualFunc(a.Steps, b.Steps, func(x, y report.Step) bool { return x.Got == y.Got })
}

// gen returns the script generator of the named check's domain (its id,
// "exercise/check"), if the check is a property.
func (p Parts[I, D, S, O]) gen(check string, impl I) (func(*rand.Rand, int) Script[S, O], bool) {
	d, ok := p.Domains[check[strings.IndexByte(check, '/')+1:]]
	if !ok {
		return nil, false
	}
	return p.Property(d, impl).Gen, true
}
