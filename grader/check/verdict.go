package check

import (
	"fmt"
	"slices"
	"strings"

	"ratelab/grader/report"
)

// Exactness is the catch-all pitfall: it is charged for every failure no
// named mistake explains.
const Exactness = "exactness"

// Judge settles the outcomes outs of s's checks (one per check, in
// order, graded with seed) from what each found, when s has error models
// (s.Mistakes):
//
//   - A mistake the implementation refutes (s.Refutes: it gets right, on
//     other scripts, what the mistake's model gets wrong) explains nothing.
//   - Across every finding of the exercise, it takes the smallest set of
//     mistakes that explains all the explained ones (where several sets
//     are as small, the one whose mistakes come first in the suite's
//     list). A finding no mistake explains is charged to exactness.
//   - Every check of a charged pitfall fails, once, whatever the number of
//     findings behind it: with a finding of its own that shows the
//     mistake, or else one that another check found, said so.
//   - A check whose findings are all charged under other pitfalls passes,
//     keeps its counterexample and says where it is charged. A finding no
//     mistake explains is charged to the check that found it as well as
//     to exactness: nothing says it belongs elsewhere. So is a property
//     that found no script answered right (Passing) where the models of
//     the mistakes charged elsewhere answer some right (PassSome): those
//     mistakes do not account for a corner where nothing is right. And so
//     is a property where most scripts the implementation answers wrong
//     are not answered, call for call to their end, as a charged
//     mistake's model answers them (Reproduces): the first wrong answer
//     is that mistake's, the rest of the code's answers are not.
//
// Checks judged by their own table (Own), benchmarks, and checks that
// panicked, timed out or were skipped keep their outcomes.
func (s Suite) Judge(seed int64, outs []Outcome) []Outcome {
	if len(s.Mistakes) == 0 {
		return outs
	}
	type found struct {
		check int
		Finding
	}
	var all []found
	refuted := map[string]bool{}
	for i, o := range outs {
		for _, f := range o.Findings {
			if f.Status == report.Failed && f.Diagnosed && !f.Own && !s.Checks[i].Own {
				f.Mistakes = slices.DeleteFunc(slices.Clone(f.Mistakes), func(m string) bool {
					r, asked := refuted[m]
					if !asked && s.Refutes != nil {
						r = s.Refutes(m, seed)
						refuted[m] = r
					}
					return r
				})
				all = append(all, found{i, f})
			}
		}
	}
	var sets [][]string
	unnamed := false
	for _, f := range all {
		if len(f.Mistakes) == 0 {
			unnamed = true
			continue
		}
		sets = append(sets, f.Mistakes)
	}
	chosen := s.cover(sets)
	pitfall := map[string]string{}
	for _, m := range s.Mistakes {
		pitfall[m.Name] = m.Pitfall
	}
	charged := map[string]bool{}
	for _, m := range chosen {
		charged[pitfall[m]] = true
	}
	if unnamed {
		charged[Exactness] = true
	}
	// shows returns the chosen mistakes of f charged under p, and whether
	// f shows p's charge (for exactness, a finding no mistake explains
	// shows it too).
	shows := func(f Finding, p string) ([]string, bool) {
		var ms []string
		for _, m := range f.Mistakes {
			if slices.Contains(chosen, m) && pitfall[m] == p {
				ms = append(ms, m)
			}
		}
		return ms, len(ms) > 0 || p == Exactness && len(f.Mistakes) == 0
	}

	out := slices.Clone(outs)
	for i, c := range s.Checks {
		o := outs[i]
		if c.Own || c.Kind == report.Benchmark || o.Status != report.Passed && o.Status != report.Failed {
			continue
		}
		if charged[c.Pitfall] {
			// Its own finding first, else the first another check found.
			var pick *found
			for _, own := range []bool{true, false} {
				for j := range all {
					if _, ok := shows(all[j].Finding, c.Pitfall); ok && (all[j].check == i) == own && pick == nil {
						pick = &all[j]
					}
				}
			}
			ms, _ := shows(pick.Finding, c.Pitfall)
			msg := s.explain(pick.Finding, ms)
			if pick.check != i {
				msg = fmt.Sprintf("Found while checking %q: %s", s.Checks[pick.check].Title, msg)
			}
			d := report.Reproduced
			if len(ms) == 0 {
				d = report.Unnamed
			}
			out[i] = Outcome{Status: report.Failed, Message: msg, Counterexample: pick.Counterexample, Diagnosis: d, Mistakes: ms}
			continue
		}
		// A failure no mistake explains is the check's own too: nothing
		// says it belongs elsewhere (an implementation wrong everywhere
		// earns nothing).
		if j := slices.IndexFunc(all, func(f found) bool { return f.check == i && len(f.Mistakes) == 0 }); j >= 0 {
			out[i] = Outcome{Status: report.Failed, Message: s.explain(all[j].Finding, nil), Counterexample: all[j].Counterexample, Diagnosis: report.Unnamed}
			continue
		}
		for _, f := range all {
			if f.check != i {
				continue
			}
			var ms []string
			for _, m := range f.Mistakes {
				if slices.Contains(chosen, m) {
					ms = append(ms, m)
				}
			}
			where := fmt.Sprintf("%s, the pitfall of %s", pitfall[ms[0]], strings.Join(ms, " and "))
			if c.Kind == report.Property && o.Passing == 0 && s.PassSome != nil && s.PassSome(c.ID, ms) {
				// Not one script of its corner came out right, where the
				// mistake's model answers some right: it does not account
				// for all of them.
				out[i] = Outcome{Status: report.Failed, Counterexample: f.Counterexample, Mistakes: ms, Diagnosis: report.Reproduced,
					Message: s.explain(f.Finding, ms) + fmt.Sprintf(" That mistake is charged under %s; this check fails too, because not one of the scripts it drew was answered right, which that mistake alone does not explain.", pitfall[ms[0]])}
				break
			}
			if c.Kind == report.Property && s.Reproduces != nil && !s.Reproduces(c.ID, ms, seed) {
				// The mistake gives the code's first wrong answers, but
				// mostly not its answers to the end of a script: the
				// code does more wrong here than that mistake.
				out[i] = Outcome{Status: report.Failed, Counterexample: f.Counterexample, Mistakes: ms, Diagnosis: report.Reproduced,
					Message: s.explain(f.Finding, ms) + fmt.Sprintf(" That mistake is charged under %s; this check fails too, because on most of the scripts it drew that you answered wrong, that mistake's model does not give all your answers to the end: your code does more wrong here than that mistake.", pitfall[ms[0]])}
				break
			}
			out[i] = Outcome{Status: report.Passed, Counterexample: f.Counterexample, Mistakes: ms,
				Message: fmt.Sprintf("Passed: the one failure found here (%s) is charged once, under %s. Its counterexample is below.", f.Head, where)}
			break
		}
	}
	return out
}

// explain is a charged finding's message: the failing call, the mistakes
// ms whose models gave every answer (and any other that did too), then
// the finding's own explanation.
func (s Suite) explain(f Finding, ms []string) string {
	if len(ms) == 0 {
		return f.Head + " No mistake the course names gives these answers: replay the calls by hand against the rules of the contract to find where yours part from them. " + f.Detail
	}
	says := func(name string) string {
		for _, m := range s.Mistakes {
			if m.Name == name {
				return m.Says
			}
		}
		return name
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s Your answers on this script are exactly those of a model that %s (mistake %s)", f.Head, says(ms[0]), ms[0])
	for _, m := range f.Mistakes {
		if m != ms[0] {
			fmt.Fprintf(&b, ", and equally of one that %s (mistake %s)", says(m), m)
		}
	}
	b.WriteString(".")
	if f.Detail != "" {
		b.WriteString(" " + f.Detail)
	}
	return b.String()
}

// cover returns the smallest set of mistakes with one in each of sets,
// ties going to the set whose mistakes come first in s.Mistakes.
func (s Suite) cover(sets [][]string) []string {
	var cand []string
	for _, m := range s.Mistakes {
		if slices.ContainsFunc(sets, func(set []string) bool { return slices.Contains(set, m.Name) }) {
			cand = append(cand, m.Name)
		}
	}
	hits := func(pick []string) bool {
		for _, set := range sets {
			if !slices.ContainsFunc(set, func(m string) bool { return slices.Contains(pick, m) }) {
				return false
			}
		}
		return true
	}
	if len(cand) > 16 { // too many to try every set: first come, first chosen
		var pick []string
		for _, set := range sets {
			if !slices.ContainsFunc(set, func(m string) bool { return slices.Contains(pick, m) }) {
				pick = append(pick, set[0])
			}
		}
		return pick
	}
	for k := 0; k <= len(cand); k++ {
		if pick, ok := choose(cand, k, nil, hits); ok {
			return pick
		}
	}
	return cand
}

// choose tries the k-element subsets of cand in lexicographic order,
// each after pick, and returns the first that ok accepts.
func choose(cand []string, k int, pick []string, ok func([]string) bool) ([]string, bool) {
	if k == 0 {
		return pick, ok(pick)
	}
	for i := 0; i+k <= len(cand); i++ {
		if got, found := choose(cand[i+1:], k-1, append(slices.Clip(pick), cand[i]), ok); found {
			return got, true
		}
	}
	return nil, false
}
