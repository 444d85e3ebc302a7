package governor

import (
	"testing"

	"ratelab/grader/check/checktest"
)

// TestDomainsGenerateValidScripts checks that every domain's generator keeps
// to its own rules, so gopter never discards a generated script, and that
// the scripts reach what their check is about.
func TestDomainsGenerateValidScripts(t *testing.T) {
	checktest.Domains(t, Checks.Domains, func(d domain) float64 { return float64(d.maxOps) / 3 }, func(t *testing.T, name string, scripts []script) {
		clears, resets := 0, 0
		for _, s := range scripts {
			m := newModel(s.Setup.Config)
			var cumF, cumR uint64
			for _, o := range s.Ops {
				switch o.Kind {
				case opWindow:
					cumF, cumR = cumF+o.F, cumR+o.R
				case opReset:
					cumF, cumR = o.F, o.R
				default:
					continue
				}
				tk := m.observe(cumF, cumR)
				if tk.clear {
					clears++
				}
				if tk.kind == reset {
					resets++
				}
			}
		}
		if name == "memory-clear" && clears < 50 {
			t.Errorf("300 scripts clear the memory %d times, want at least 50", clears)
		}
		if name == "windowing" && resets < 50 {
			t.Errorf("300 scripts reset the counters %d times, want at least 50", resets)
		}
	})
}

func TestReferencePassesEveryCheck(t *testing.T) {
	checktest.ReferencePasses(t, Checks.Suite, API(reference), 5, 30)
}

// TestMistakes runs the tests of the suite's error models (see
// checktest.Mistakes).
func TestMistakes(t *testing.T) { checktest.Mistakes(t, Checks) }

func TestEveryPropertyHasADomain(t *testing.T) {
	checktest.EveryPropertyHasADomain(t, Checks.Suite(nil), Checks.Domains)
}
