package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"ratelab/grader/report"
)

// totaler is the toy API of the diagnosis tests: a running total.
type totaler interface{ Add(n uint64) uint64 }

// adding is the toy model, with a mistake switched on by name:
// "short-sevens" adds one too few for an n of 7 or more (the bug of
// tally), "short-all" one too few for every n above 0, "double-nines"
// adds 18 for 9.
type adding struct {
	mistake string
	sum     uint64
}

func (a *adding) Add(n uint64) uint64 {
	switch {
	case a.mistake == "short-sevens" && n >= 7, a.mistake == "short-all" && n > 0:
		n--
	case a.mistake == "double-nines" && n == 9:
		n *= 2
	}
	a.sum += n
	return a.sum
}

func addingAs(mistake string) func(uint64) totaler {
	return func(start uint64) totaler { return &adding{mistake: mistake, sum: start} }
}

var adderMistakes = []Mistake[func(uint64) totaler]{
	{Name: "short-all", Pitfall: "all", Says: "adds one too few every time", Impl: addingAs("short-all")},
	{Name: "short-sevens", Pitfall: "sevens", Says: "adds one too few from 7 up", Impl: addingAs("short-sevens")},
}

func adderReplay(impl func(uint64) totaler, s Script[uint64, uint64]) Trace {
	t, a, ok := Begin(fmt.Sprintf("New(%d)", s.Setup), func() totaler { return impl(s.Setup) })
	t.Full = s.Full
	if !ok {
		return t
	}
	want := s.Setup
	for _, n := range s.Ops {
		want += n
		got, p := Call(func() uint64 { return a.Add(n) })
		if !t.Step(fmt.Sprintf("Add(%d)", n), U(got), U(want), p) {
			return t
		}
	}
	return t
}

// TestDiagnosedPropertyNamesTheMistakeAlone: tally's bug is short-sevens;
// short-all answers alike on a script of Adds of 7 or more, so the
// property must report a finding that tells them apart, shrunk.
func TestDiagnosedPropertyNamesTheMistakeAlone(t *testing.T) {
	tallyImpl := func(start uint64) totaler { return &tally{sum: start} }
	p := Over[uint64, uint64](tallyDomain{}, nil, shrinkAdd, func(s Script[uint64, uint64]) Trace { return adderReplay(tallyImpl, s) })
	p.Diagnose = Diagnoser(adderMistakes, adderReplay)
	o := p.Run(1, "why")
	if o.Status != report.Failed || len(o.Findings) == 0 {
		t.Fatalf("Run = %s %q, want failed with findings", o.Status, o.Message)
	}
	alone := false
	for _, f := range o.Findings {
		if !slices.Contains(f.Mistakes, "short-sevens") {
			t.Errorf("finding %q explained by %q, want short-sevens among them", f.Head, f.Mistakes)
		}
		alone = alone || slices.Equal(f.Mistakes, []string{"short-sevens"})
		if n := len(f.Counterexample.Steps); n > 3 {
			t.Errorf("finding has %d steps, want a shrunk one: %+v", n, f.Counterexample.Steps)
		}
	}
	if !alone {
		t.Errorf("no finding is explained by short-sevens alone: %+v", o.Findings)
	}
	s := Suite{Checks: []Check{{ID: "toy/all", Pitfall: "all"}, {ID: "toy/sevens", Pitfall: "sevens"}},
		Mistakes: []Named{adderMistakes[0].Named(), adderMistakes[1].Named()}}
	got := s.Judge(1, []Outcome{o, Pass()})
	if got[0].Status != report.Passed || got[1].Status != report.Failed || !slices.Equal(got[1].Mistakes, []string{"short-sevens"}) {
		t.Errorf("judged: all %s %q, sevens %s %v; want all passed (its failure charged to sevens), sevens failed for short-sevens", got[0].Status, got[0].Message, got[1].Status, got[1].Mistakes)
	}
	if got[0].Counterexample == nil || !strings.Contains(got[0].Message, "charged once, under sevens") {
		t.Errorf("the check that found it passes without showing where it is charged: %q", got[0].Message)
	}
}

func shrinkAdd(n uint64) []uint64 { return Smaller(n) }

// TestDiagnosisShrinksKeepingTheMistakes: an unexplained failure stays
// unexplained while it shrinks, and is reported as such.
func TestDiagnosisShrinksKeepingTheMistakes(t *testing.T) {
	tallyImpl := func(start uint64) totaler { return &tally{sum: start} }
	p := Over[uint64, uint64](tallyDomain{}, nil, shrinkAdd, func(s Script[uint64, uint64]) Trace { return adderReplay(tallyImpl, s) })
	// Only double-nines is known: no failure of tally's is its.
	nines := []Mistake[func(uint64) totaler]{{Name: "double-nines", Pitfall: "nines", Says: "adds 18 for 9", Impl: addingAs("double-nines")}}
	p.Diagnose = Diagnoser(nines, adderReplay)
	o := p.Run(1, "why")
	if len(o.Findings) != 1 || len(o.Findings[0].Mistakes) != 0 || !o.Findings[0].Diagnosed {
		t.Fatalf("findings %+v, want one, diagnosed, explained by nothing", o.Findings)
	}
	if got := o.Findings[0].Counterexample.Steps; len(got) != 1 || got[0].Call != "Add(7)" {
		t.Errorf("counterexample %+v, want the one call Add(7)", got)
	}
}

func finding1(check string, mistakes ...string) Finding {
	return Finding{Status: report.Failed, Head: check + "() = 1; want 2.", Detail: "why", Diagnosed: true, Mistakes: mistakes,
		Counterexample: &report.Counterexample{Setup: "New()", Steps: []report.Step{{Call: check + "()", Got: "1", Want: "2"}}}}
}

func found(fs ...Finding) Outcome { return Found(fs) }

// placedFinding is an unnamed finding of check whose place is settled:
// key is its mistake's, stays whether check's own trap causes it, needs
// the other checks whose traps it needs.
func placedFinding(check, key string, stays bool, needs ...string) Finding {
	f := finding1(check)
	f.Attributed, f.Key, f.Stays, f.Needs = true, key, stays, needs
	f.Details = map[string]string{"exact": "exactness says so"}
	return f
}

// weakFinding is f whose script holds the traps of the checks named.
func weakFinding(f Finding, holds ...string) Finding {
	f.Holds = holds
	return f
}

// panicFinding is a panic met by check, attributed to no trap.
func panicFinding(check string) Finding {
	return Finding{Status: report.Error, Head: "New() panicked: boom.", Diagnosed: true, Attributed: true, Key: "panic New: boom",
		Counterexample: &report.Counterexample{Setup: "New()"}}
}

// hangFinding is a call of Pop that did not return, met by check, whose
// own trap the script holds (stays) or not.
func hangFinding(check string, stays bool) Finding {
	return Finding{Status: report.Timeout, Head: "Pop() did not return within 2s of CPU time.", Diagnosed: true, Attributed: true, Key: "no return Pop", Stays: stays,
		Counterexample: &report.Counterexample{Setup: "New()", Steps: []report.Step{{Call: "Pop()", Got: "no answer: it did not return", Want: "(1, 1, true)"}}}}
}

func TestJudge(t *testing.T) {
	s := Suite{
		Checks: []Check{
			{ID: "x/a", Title: "A", Pitfall: "pa"},
			{ID: "x/b", Title: "B", Pitfall: "pb"},
			{ID: "x/b2", Title: "B2", Pitfall: "pb"},
			{ID: "x/exact", Title: "Exact", Pitfall: Exactness},
			{ID: "x/args", Title: "Args", Pitfall: "pa", Own: true},
			{ID: "x/budget", Title: "Budget", Pitfall: "budget", Kind: report.Benchmark},
		},
		Mistakes: []Named{{"ma", "pa", "does a"}, {"mb", "pb", "does b"}, {"mb2", "pb", "does b too"}, {"mx", "pa", "does x"}},
	}
	type want struct {
		status   report.Status
		mistakes []string
		diag     report.Diagnosis
		borrowed bool // its message says another check found it
	}
	pass := want{status: report.Passed}
	tests := []struct {
		name string
		outs []Outcome
		want []want
	}{{
		name: "a mistake found by another pitfall's check costs its own pitfall's checks",
		outs: []Outcome{found(finding1("a", "mb")), Pass(), Pass(), Pass(), Pass(), {Status: report.Skipped}},
		want: []want{{report.Passed, []string{"mb"}, "", false}, {report.Failed, []string{"mb"}, report.Reproduced, true}, {report.Failed, []string{"mb"}, report.Reproduced, true}, pass, pass, {status: report.Skipped}},
	}, {
		name: "the smallest set of mistakes explaining every finding",
		outs: []Outcome{found(finding1("a", "ma", "mb")), found(finding1("b", "mb", "mx")), found(finding1("b2", "mb")), Pass(), Pass(), Pass()},
		want: []want{{report.Passed, []string{"mb"}, "", false}, {report.Failed, []string{"mb"}, report.Reproduced, false}, {report.Failed, []string{"mb"}, report.Reproduced, false}, pass, pass, pass},
	}, {
		name: "a tie goes to the mistake listed first",
		outs: []Outcome{found(finding1("a", "ma", "mb")), Pass(), Pass(), Pass(), Pass(), Pass()},
		want: []want{{report.Failed, []string{"ma"}, report.Reproduced, false}, {report.Passed, nil, "", false}, {report.Passed, nil, "", false}, pass, pass, pass},
	}, {
		name: "a failure no mistake explains, where nothing says where it comes from, costs the check that found it",
		outs: []Outcome{found(finding1("a")), Pass(), Pass(), Pass(), Pass(), Pass()},
		want: []want{{report.Failed, nil, report.Unnamed, false}, pass, pass, pass, pass, pass},
	}, {
		name: "a failure its check's trap causes costs that check alone",
		outs: []Outcome{found(placedFinding("a", "k", true)), Pass(), Pass(), Pass(), Pass(), Pass()},
		want: []want{{report.Failed, nil, report.Unnamed, false}, pass, pass, pass, pass, pass},
	}, {
		name: "a failure no trap causes costs exactness, once, and passes the check that found it",
		outs: []Outcome{found(placedFinding("a", "k", false)), found(placedFinding("b", "k2", false)), Pass(), Pass(), Pass(), Pass()},
		want: []want{pass, pass, pass, {report.Failed, nil, report.Unnamed, true}, pass, pass},
	}, {
		name: "a failure that needs another check's trap costs that check's pitfall",
		outs: []Outcome{found(placedFinding("a", "k", false, "b")), Pass(), Pass(), Pass(), Pass(), Pass()},
		want: []want{pass, {report.Failed, nil, report.Unnamed, true}, {report.Failed, nil, report.Unnamed, true}, pass, pass, pass},
	}, {
		name: "one mistake found by two checks costs the first it belongs to, once",
		outs: []Outcome{found(placedFinding("a", "same", true)), found(placedFinding("b", "same", true)), Pass(), Pass(), Pass(), Pass()},
		want: []want{{report.Failed, nil, report.Unnamed, false}, pass, pass, pass, pass, pass},
	}, {
		name: "a panic charged to exactness leaves the check that met it",
		outs: []Outcome{found(panicFinding("a")), Pass(), Pass(), Pass(), Pass(), Pass()},
		want: []want{pass, pass, pass, {report.Error, nil, "", true}, pass, pass},
	}, {
		name: "a call that did not return costs the check whose trap it holds, once; the others that met it pass",
		outs: []Outcome{found(hangFinding("a", false)), found(hangFinding("b", true)), found(hangFinding("b2", false)), found(hangFinding("exact", false)), Pass(), Pass()},
		want: []want{pass, {status: report.Timeout}, {status: report.Timeout}, pass, pass, pass},
	}, {
		name: "a call that did not return, in no check's trap, costs exactness alone",
		outs: []Outcome{found(hangFinding("a", false)), Pass(), Pass(), found(hangFinding("exact", false)), Pass(), Pass()},
		want: []want{pass, pass, pass, {status: report.Timeout}, pass, pass},
	}, {
		name: "a difference no mistake explains, whose script holds the trap of a pitfall a named mistake is charged under, is charged there",
		outs: []Outcome{found(weakFinding(placedFinding("a", "k", false), "b")), Pass(), found(finding1("b2", "mb")), Pass(), Pass(), Pass()},
		want: []want{pass, {report.Failed, nil, report.Unnamed, true}, {report.Failed, []string{"mb"}, report.Reproduced, false}, pass, pass, pass},
	}, {
		name: "panics, validations and benchmarks keep their outcomes",
		outs: []Outcome{{Status: report.Error, Message: "panicked"}, found(finding1("b", "ma")), Pass(), Pass(), Own(Outcome{Status: report.Failed, Message: "no panic"}), {Status: report.Failed}},
		want: []want{{status: report.Error}, {report.Passed, []string{"ma"}, "", false}, pass, pass, {report.Failed, nil, "", false}, {status: report.Failed}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.Judge(1, tt.outs)
			for i, w := range tt.want {
				g := got[i]
				if g.Status != w.status || !slices.Equal(g.Mistakes, w.mistakes) || g.Diagnosis != w.diag {
					t.Errorf("%s: %s %q %q; want %s %q %q (message %q)", s.Checks[i].ID, g.Status, g.Mistakes, g.Diagnosis, w.status, w.mistakes, w.diag, g.Message)
				}
				if b := strings.HasPrefix(g.Message, "Found while checking"); g.Status == report.Failed && b != w.borrowed {
					t.Errorf("%s: message %q: borrowed %t, want %t", s.Checks[i].ID, g.Message, b, w.borrowed)
				}
				if g.Status == report.Failed && g.Counterexample == nil && s.Checks[i].Kind != report.Benchmark && !s.Checks[i].Own {
					t.Errorf("%s failed without a counterexample", s.Checks[i].ID)
				}
				if o := tt.outs[i]; o.Status == report.Timeout && g.Status == report.Passed && !strings.Contains(g.Message, "did not return") {
					t.Errorf("%s passed where a call did not return without saying so: %q", s.Checks[i].ID, g.Message)
				}
			}
		})
	}
}

// TestJudgeSaysBothWhereTwoExplain: the message of a finding two mistakes
// explain names both.
func TestJudgeSaysBothWhereTwoExplain(t *testing.T) {
	s := Suite{Checks: []Check{{ID: "x/a", Pitfall: "pa"}}, Mistakes: []Named{{"ma", "pa", "does a"}, {"mx", "pa", "does x"}}}
	got := s.Judge(1, []Outcome{found(finding1("a", "ma", "mx"))})[0]
	for _, w := range []string{"a() = 1; want 2.", "a model that does a (mistake ma)", "equally of one that does x (mistake mx)", "why"} {
		if !strings.Contains(got.Message, w) {
			t.Errorf("message %q lacks %q", got.Message, w)
		}
	}
}

// TestJudgeWithoutMistakesChangesNothing: a suite without error models is
// left as its checks found it.
func TestJudgeWithoutMistakesChangesNothing(t *testing.T) {
	outs := []Outcome{found(finding1("a")), Pass()}
	got := Suite{Checks: []Check{{Pitfall: "pa"}, {Pitfall: Exactness}}}.Judge(1, outs)
	if got[0].Status != report.Failed || got[1].Status != report.Passed {
		t.Errorf("judged %v, want unchanged", got)
	}
}

// TestJudgeNamesNoRefutedMistake: a mistake the code refutes elsewhere
// explains nothing, even where its model gave every answer; a finding
// left with no mistake is charged to exactness.
func TestJudgeNamesNoRefutedMistake(t *testing.T) {
	s := Suite{
		Checks:   []Check{{ID: "x/a", Pitfall: "pa"}, {ID: "x/exact", Pitfall: Exactness}},
		Mistakes: []Named{{"ma", "pa", "does a"}, {"mb", "pa", "does b"}},
		Refutes:  func(m string, seed int64) bool { return m == "ma" && seed == 7 },
	}
	outs := []Outcome{found(finding1("a", "ma", "mb")), found(finding1("exact", "ma"))}
	got := s.Judge(7, outs)
	if got[0].Status != report.Failed || !slices.Equal(got[0].Mistakes, []string{"mb"}) {
		t.Errorf("a: %s %q, want failed for mb alone (ma is refuted)", got[0].Status, got[0].Mistakes)
	}
	if got[1].Status != report.Failed || got[1].Diagnosis != report.Unnamed {
		t.Errorf("exactness: %s %q, want failed, unnamed (its one mistake is refuted)", got[1].Status, got[1].Diagnosis)
	}
	if got := s.Judge(1, outs); !slices.Equal(got[1].Mistakes, []string{"ma"}) || got[1].Status != report.Passed {
		t.Errorf("with a seed that refutes nothing, exactness %s %q; want passed, its failure charged to ma", got[1].Status, got[1].Mistakes)
	}
}

// stuckAdder adds one too few the first time it adds anything, as
// short-all does, and nothing ever after.
type stuckAdder struct {
	sum   uint64
	stuck bool
}

func (a *stuckAdder) Add(n uint64) uint64 {
	if n > 0 && !a.stuck {
		a.sum, a.stuck = a.sum+n-1, true
	}
	return a.sum
}

// TestReproducesLooksPastTheFirstWrongAnswer: code that makes a mistake
// and nothing else gives that mistake's model's answers to the end of
// every script; code whose first wrong answer is the mistake's and the
// rest are not (stuckAdder, against short-all) does not.
func TestReproducesLooksPastTheFirstWrongAnswer(t *testing.T) {
	p := Parts[func(uint64) totaler, tallyDomain, uint64, uint64]{
		Exercise: "toy",
		Domains:  map[string]tallyDomain{"all": {}},
		Property: func(d tallyDomain, impl func(uint64) totaler) Property[uint64, uint64] {
			return Over[uint64, uint64](d, nil, shrinkAdd, func(s Script[uint64, uint64]) Trace { return adderReplay(impl, s) })
		},
		Mistakes: adderMistakes,
		Replay:   adderReplay,
	}
	on := func(impl func(uint64) totaler) func(Script[uint64, uint64]) Trace {
		return func(s Script[uint64, uint64]) Trace { return p.Replay(impl, s) }
	}
	if !p.reproduces(addingAs("short-all"), on(addingAs("short-all")), "toy/all", []string{"short-all"}, 1) {
		t.Error("short-all's own model is not reproduced by short-all")
	}
	stuck := func(start uint64) totaler { return &stuckAdder{sum: start} }
	if p.reproduces(stuck, on(stuck), "toy/all", []string{"short-all"}, 1) {
		t.Error("code that stops adding after its first wrong answer is reproduced by short-all")
	}
	if got := p.Replay(stuck, Script[uint64, uint64]{Setup: 0, Ops: []uint64{1, 1, 1}, Full: true}); len(got.Steps) != 3 || !got.Bad {
		t.Errorf("a full replay stopped at %d steps (bad %t), want all 3, bad", len(got.Steps), got.Bad)
	}
}

// TestJudgeFailsWhatTheMistakeDoesNotReproduce: a check whose findings
// another pitfall's mistake explains passes only where that mistake's
// model also gives the code's answers past the first wrong one.
func TestJudgeFailsWhatTheMistakeDoesNotReproduce(t *testing.T) {
	for _, reproduced := range []bool{true, false} {
		s := Suite{
			Checks:     []Check{{ID: "x/a", Pitfall: "pa", Kind: report.Property}, {ID: "x/b", Pitfall: "pb", Kind: report.Property}},
			Mistakes:   []Named{{"mb", "pb", "does b"}},
			Reproduces: func(check string, ms []string, seed int64) bool { return reproduced || check != "x/a" },
		}
		got := s.Judge(1, []Outcome{found(finding1("a", "mb")), found(finding1("b", "mb"))})
		if want := map[bool]report.Status{true: report.Passed, false: report.Failed}[reproduced]; got[0].Status != want {
			t.Errorf("reproduced %t: a %s %q; want %s", reproduced, got[0].Status, got[0].Message, want)
		}
		if got[1].Status != report.Failed || !slices.Equal(got[1].Mistakes, []string{"mb"}) {
			t.Errorf("reproduced %t: b %s %q; want failed for mb", reproduced, got[1].Status, got[1].Mistakes)
		}
	}
}
