package checktest

import (
	"math/rand"
	"testing"

	"ratelab/grader/check"
)

// Neutralises tests the Neutral of the trap p declares for its check name,
// on 300 scripts of each of p's domains, those that hold the trap: each is
// rewritten (ok) into a script that does not hold it; the model of every
// mistake of the check's pitfall answers the rewritten script as the
// contract does (a mistake about the trap needs the trap); and, of the
// scripts the model of another mistake answers wrong, it answers at least
// a share keep of their rewritings wrong too (the neutraliser keeps what
// other mistakes show on).
func Neutralises[I, S, O any, D check.Domain[S, O]](t *testing.T, p check.Parts[I, D, S, O], name, pitfall string, keep float64) {
	t.Helper()
	trap, ok := p.Traps[name]
	if !ok || trap.Neutral == nil {
		t.Fatalf("no trap with a Neutral declared for %s", name)
	}
	wrong := func(m I, s check.Script[S, O]) bool {
		tr, pn := check.Call(func() check.Trace { return p.Replay(m, s) })
		return pn != nil || tr.Bad || tr.Panic != nil
	}
	held, shown, kept := 0, 0, 0
	for dn, d := range p.Domains {
		r := rand.New(rand.NewSource(7))
		for range 300 {
			s := d.Gen(r, 50)
			if !trap.Has(s) {
				continue
			}
			held++
			n, ok := trap.Neutral(s)
			if !ok {
				t.Errorf("%s: a script holding the trap is not neutralised: %s", dn, whole(s))
				continue
			}
			if trap.Has(n) {
				t.Errorf("%s: the neutralised script still holds the trap: %s", dn, whole(n))
				continue
			}
			for _, m := range p.Mistakes {
				switch {
				case m.Pitfall == pitfall:
					if wrong(m.Impl, n) {
						t.Errorf("%s: mistake %s answers a neutralised script wrong: %s (from %s)", dn, m.Name, whole(n), whole(s))
					}
				case wrong(m.Impl, s):
					shown++
					if wrong(m.Impl, n) {
						kept++
					}
				}
			}
		}
	}
	t.Logf("%d scripts held the trap; other mistakes showed on them %d times, on the neutralised ones %d times", held, shown, kept)
	if held == 0 {
		t.Errorf("no script of any domain holds the trap of %s", name)
	}
	if float64(kept) < keep*float64(shown) {
		t.Errorf("other mistakes show on %d of %d neutralised scripts, fewer than %.0f%%", kept, shown, 100*keep)
	}
}
