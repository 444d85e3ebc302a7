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
// (s.Mistakes). Its rules are those of CONTRIBUTING.md's "How grading works":
//
//   - A mistake the implementation refutes (s.Refutes: it gets right, on
//     other scripts, what the mistake's model gets wrong) explains nothing.
//     Across every finding of the exercise, Judge takes the smallest set of
//     mistakes that explains all the explained ones (where several sets
//     are as small, the one whose mistakes come first in the suite's
//     list), and charges their pitfalls.
//   - A finding no mistake explains, a panic, or a call that did not
//     return (see Hang) belongs to a check whose trap causes it (see Trap,
//     Finding.Stays): the check that found it if it stays there, or a
//     check whose trap it needs. Findings with the same key (the same
//     script answered the same way, the same call panicking with the same
//     value, the same method not returning) are one mistake. A mistake
//     whose script holds the trap of a check of a pitfall charged for a
//     named mistake is that check's (the same mistake shown again); of the
//     rest, the fewest such checks take every mistake they can, a mistake
//     whose script holds the trap of a check charged anyway being that
//     check's too; the rest is charged to exactness, once.
//   - Every check of a charged pitfall fails, once, whatever the number of
//     findings behind it: with a finding of its own charged there, or else
//     one that another check found, said so.
//   - A check whose findings are all charged under other pitfalls passes,
//     keeps its counterexample and says where it is charged, but for
//     three cases where the other mistake does not account for it: a
//     difference no mistake explains, in an implementation wrong
//     everywhere (s.Plain, Plain.WrongEverywhere: constant or stub-like,
//     its plain scripts' wrong answers not those of a charged mistake, it
//     cannot be credited with what each check is about); a property
//     that found no script answered right where the charged
//     mistakes' models answer some right (s.PassSome); a property where
//     most scripts answered wrong are not answered, call for call to
//     their end, as a charged mistake's model answers them
//     (s.Reproduces).
//
// Checks judged by their own table (Own), benchmarks, and checks that
// timed out as a whole (no finding: the check's deadline passed, or more
// calls did not return than it replays, see MaxHangs) or were skipped keep
// their outcomes.
func (s Suite) Judge(seed int64, outs []Outcome) []Outcome {
	if len(s.Mistakes) == 0 {
		return outs
	}
	type found = placed
	name := func(i int) string { return s.Checks[i].ID[strings.IndexByte(s.Checks[i].ID, '/')+1:] }
	index := map[string]int{}
	exact := -1
	for i, c := range s.Checks {
		index[name(i)] = i
		if c.Pitfall == Exactness && (exact < 0 || c.Kind == report.Property && s.Checks[exact].Kind != report.Property) {
			exact = i
		}
	}
	judged := func(i int) bool {
		c, o := s.Checks[i], outs[i]
		if c.Own || c.Kind == report.Benchmark {
			return false
		}
		if o.Status == report.Error || o.Status == report.Timeout {
			// A panic, or a call that did not return, is judged with the
			// rest only where every finding behind it was attributed.
			return len(o.Findings) > 0 && !slices.ContainsFunc(o.Findings, func(f Finding) bool { return !f.Attributed })
		}
		return o.Status == report.Passed || o.Status == report.Failed
	}
	var all []found
	refuted := map[string]bool{}
	for i, o := range outs {
		if !judged(i) {
			continue
		}
		for _, f := range o.Findings {
			if f.Own || f.Status == report.Failed && !f.Diagnosed {
				continue
			}
			if f.Status == report.Failed {
				f.Mistakes = slices.DeleteFunc(slices.Clone(f.Mistakes), func(m string) bool {
					r, asked := refuted[m]
					if !asked && s.Refutes != nil {
						r = s.Refutes(m, seed)
						refuted[m] = r
					}
					return r
				})
			}
			all = append(all, found{check: i, Finding: f, owner: -1})
		}
	}
	unnamed := func(f found) bool { return f.Status != report.Failed || len(f.Mistakes) == 0 }
	// Where each unnamed finding belongs: the checks whose trap is shown
	// to cause it (strong: it stays with the check that found it, or it
	// needs another's trap), and the checks whose trap its script holds
	// (weak). Findings with one key are one mistake. The fewest checks
	// that some difference strongly belongs to cover every mistake they
	// can (strongly or weakly: a difference that holds the trap of a
	// check charged anyway is the same mistake shown again); what they
	// cannot cover is charged to exactness.
	type group struct{ strong, weak []int }
	groups := map[string]*group{}
	var keys []string
	for _, f := range all {
		if !unnamed(f) || !f.Attributed {
			continue
		}
		g, ok := groups[f.Key]
		if !ok {
			g = &group{}
			groups[f.Key] = g
			keys = append(keys, f.Key)
		}
		if f.Stays && f.check != exact {
			g.strong = append(g.strong, f.check)
		}
		for _, n := range f.Needs {
			if j, ok := index[n]; ok && j != exact {
				g.strong = append(g.strong, j)
			}
		}
		for _, n := range f.Holds {
			if j, ok := index[n]; ok && j != exact {
				g.weak = append(g.weak, j)
			}
		}
	}
	strong := map[int]bool{}
	for _, g := range groups {
		for _, j := range g.strong {
			strong[j] = true
		}
	}
	var sets [][]string
	for _, f := range all {
		if !unnamed(f) {
			sets = append(sets, f.Mistakes)
		}
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
	// A mistake whose script holds the trap of a check of a pitfall a
	// named mistake is charged under is that check's: the same mistake
	// shown again, charged once.
	owners := map[string]int{}
	for _, k := range keys {
		for j := range s.Checks {
			if j != exact && charged[s.Checks[j].Pitfall] && (slices.Contains(groups[k].strong, j) || slices.Contains(groups[k].weak, j)) {
				owners[k] = j
				break
			}
		}
	}
	for {
		best, covers := -1, 0
		for j := range s.Checks {
			if !strong[j] {
				continue
			}
			n := 0
			for _, k := range keys {
				if _, done := owners[k]; !done && (slices.Contains(groups[k].strong, j) || slices.Contains(groups[k].weak, j)) {
					n++
				}
			}
			if n > covers {
				best, covers = j, n
			}
		}
		if best < 0 {
			break
		}
		for _, k := range keys {
			if _, done := owners[k]; !done && (slices.Contains(groups[k].strong, best) || slices.Contains(groups[k].weak, best)) {
				owners[k] = best
			}
		}
	}
	for i := range all {
		f := &all[i]
		o, ok := owners[f.Key]
		switch {
		case !unnamed(*f):
		case !f.Attributed:
			f.owner = f.check // nothing says it belongs elsewhere
		case ok:
			f.owner = o
		case exact >= 0:
			f.owner = exact
		default:
			f.owner = f.check
		}
	}
	for _, f := range all {
		if unnamed(f) {
			charged[s.Checks[f.owner].Pitfall] = true
		}
	}
	// shows returns the chosen mistakes of f charged under p, and whether
	// f is charged under p.
	shows := func(f found, p string) ([]string, bool) {
		if unnamed(f) {
			return nil, s.Checks[f.owner].Pitfall == p
		}
		var ms []string
		for _, m := range f.Mistakes {
			if slices.Contains(chosen, m) && pitfall[m] == p {
				ms = append(ms, m)
			}
		}
		return ms, len(ms) > 0
	}
	// where says under which pitfall, and for which mistake, f is charged.
	where := func(f found) string {
		if unnamed(f) {
			return fmt.Sprintf("%s (the check %q)", s.Checks[f.owner].Pitfall, s.Checks[f.owner].Title)
		}
		var ms []string
		for _, m := range f.Mistakes {
			if slices.Contains(chosen, m) {
				ms = append(ms, m)
			}
		}
		return fmt.Sprintf("%s, the pitfall of %s", pitfall[ms[0]], strings.Join(ms, " and "))
	}

	out := slices.Clone(outs)
	// How the code answers plain scripts: replayed once, the first time a
	// check needs it (see Plain.WrongEverywhere).
	var plain *Plain
	plainOnce := func() Plain {
		if plain == nil {
			pl := s.Plain(seed)
			plain = &pl
		}
		return *plain
	}
	for i, c := range s.Checks {
		o := outs[i]
		if !judged(i) {
			continue
		}
		if charged[c.Pitfall] {
			// Its own finding first (one it owns before one it found),
			// else the first another check found.
			var pick *found
			for _, rank := range []func(found) bool{
				func(f found) bool { return f.check == i && (f.owner == i || !unnamed(f)) },
				func(f found) bool { return f.owner == i },
				func(f found) bool { return f.check == i },
				func(found) bool { return true },
			} {
				for j := range all {
					if _, ok := shows(all[j], c.Pitfall); ok && rank(all[j]) && pick == nil {
						pick = &all[j]
					}
				}
			}
			if pick == nil {
				// Charged by a finding no check here can show (none
				// found): keep the check's own outcome.
				continue
			}
			ms, _ := shows(*pick, c.Pitfall)
			out[i] = s.charge(*pick, i, ms)
			continue
		}
		var mine []found
		for _, f := range all {
			if f.check == i {
				mine = append(mine, f)
			}
		}
		if len(mine) == 0 {
			continue
		}
		f := mine[0]
		var ms []string
		for _, m := range f.Mistakes {
			if slices.Contains(chosen, m) {
				ms = append(ms, m)
			}
		}
		if unnamed(f) && s.Plain != nil {
			if pl := plainOnce(); pl.WrongEverywhere(chosen) {
				// Hardly a plain script comes out right, nor most calls
				// of any method: what this check is about cannot be
				// told apart from the difference charged elsewhere.
				out[i] = Outcome{Status: report.Failed, Counterexample: f.Counterexample, Diagnosis: diagnosisOf(f.Finding, nil),
					Message: s.message(f.Finding, nil) + fmt.Sprintf(" That difference is charged under %s. This check fails too: your code answered only %d of %d plain scripts (the exactness check's) right, and no method right on three calls in four, so what this check is about cannot be told apart from it.", where(f), pl.Right, pl.Drawn)}
				continue
			}
		}
		if !unnamed(f) && c.Kind == report.Property && o.Passing == 0 && s.PassSome != nil && s.PassSome(c.ID, ms) {
			// Not one script of its corner came out right, where the
			// mistake's model answers some right: it does not account
			// for all of them.
			out[i] = Outcome{Status: report.Failed, Counterexample: f.Counterexample, Mistakes: ms, Diagnosis: report.Reproduced,
				Message: s.message(f.Finding, ms) + fmt.Sprintf(" That mistake is charged under %s; this check fails too, because not one of the scripts it drew was answered right, which that mistake alone does not explain.", pitfall[ms[0]])}
			continue
		}
		if !unnamed(f) && c.Kind == report.Property && s.Reproduces != nil && !s.Reproduces(c.ID, ms, seed) {
			// The mistake gives the code's first wrong answers, but
			// mostly not its answers to the end of a script: the
			// code does more wrong here than that mistake.
			out[i] = Outcome{Status: report.Failed, Counterexample: f.Counterexample, Mistakes: ms, Diagnosis: report.Reproduced,
				Message: s.message(f.Finding, ms) + fmt.Sprintf(" That mistake is charged under %s; this check fails too, because on most of the scripts it drew that you answered wrong, that mistake's model does not give all your answers to the end: your code does more wrong here than that mistake.", pitfall[ms[0]])}
			continue
		}
		if f.Status == report.Timeout {
			rest := "and found nothing else wrong"
			if len(mine) > 1 {
				rest = "and what else it found is charged under other checks too"
			}
			out[i] = Outcome{Status: report.Passed, Counterexample: f.Counterexample,
				Message: fmt.Sprintf("Passed: this check's script met a call that did not return too (%s), but that is not what this check is about: it is charged once, under %s, and shown there. This check was graded on the other scripts it drew (your code answered %d of them right), %s. Its counterexample is below.", f.Head, where(f), o.Passing, rest)}
			continue
		}
		out[i] = Outcome{Status: report.Passed, Counterexample: f.Counterexample, Mistakes: ms,
			Message: fmt.Sprintf("Passed: your code differs on this check's script too (%s), but not because of what this check is about; that difference is charged once, under %s, and shown there. Its counterexample is below.", f.Head, where(f))}
	}
	return out
}

// PlainShare: an implementation that answers right fewer than one in
// PlainShare plain scripts may be wrong everywhere (see
// Plain.WrongEverywhere).
const PlainShare = 5

// placed is a finding with the check that found it and, for a finding no
// mistake explains or a panic, the check it belongs to (see Judge).
type placed struct {
	check int
	Finding
	owner int
}

// charge is the failed outcome of check i of s, charged with the finding
// f (found by check f.check), and mistakes the chosen mistakes f shows
// there.
func (s Suite) charge(f placed, i int, ms []string) Outcome {
	msg := s.message(f.Finding, ms)
	if f.check != i {
		msg = fmt.Sprintf("Found while checking %q: %s", s.Checks[f.check].Title, msg)
	}
	status := report.Failed
	if f.Status == report.Error || f.Status == report.Timeout {
		status = f.Status
	}
	return Outcome{Status: status, Message: msg, Counterexample: f.Counterexample, Diagnosis: diagnosisOf(f.Finding, ms), Mistakes: ms}
}

// message is what a check charged with the finding f and the mistakes ms
// says: its failing call, the mistakes whose models gave every answer
// (see explain), or that none did, or the panic; then its Detail, the
// words of a check whose trap is in the script (see Parts.attribute).
func (s Suite) message(f Finding, ms []string) string {
	switch f.Status {
	case report.Error:
		return f.Head + " Every argument in this script is one the contract allows, so no call may panic on it. A panic is charged once, under one check; the other checks are judged on what else they found."
	case report.Timeout:
		return f.Head + " Every call in this script is one the contract allows, so each must return. A call that does not return is charged once, under one check; the other checks are graded on the other scripts they drew."
	}
	return s.explain(f, ms)
}

// diagnosisOf is the diagnosis of a check charged with f and the mistakes
// ms: none for a panic or a call that did not return, which no model
// gives.
func diagnosisOf(f Finding, ms []string) report.Diagnosis {
	switch {
	case f.Status != report.Failed:
		return ""
	case len(ms) > 0:
		return report.Reproduced
	}
	return report.Unnamed
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
