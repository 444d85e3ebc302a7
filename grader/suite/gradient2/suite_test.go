package gradient2

import (
	"testing"

	"ratelab/grader/check/checktest"
)

// TestDomainsGenerateValidScripts checks that every domain's generator keeps
// to its own rules, so gopter never discards a generated script, and that
// the streams reach what their check is about.
func TestDomainsGenerateValidScripts(t *testing.T) {
	checktest.Domains(t, Checks.Domains, func(domain) float64 { return 0 }, func(t *testing.T, name string, scripts []script) {
		var samples, boundary, lowClamp, limitClamp, lateMoves int
		for _, s := range scripts {
			m := newModel(s.Setup.config())
			decayed := false
			for _, o := range s.Ops {
				if o.Limit {
					continue
				}
				for range o.Times {
					exact, half := m.Exact, m.Est/2
					smp := m.Update(o.RTT, o.Inflight)
					samples++
					if !smp.AppLimited && decayed {
						lateMoves++ // a sample that shows a kept decay
					}
					decayed = smp.Decays && m.Seen == warmup
					if !smp.AppLimited && smp.Raw < 0.5 {
						lowClamp++
					}
					if !smp.AppLimited && smp.Est != smp.Smoothed {
						limitClamp++
					}
					if exact && float64(o.Inflight) == half {
						boundary++
					}
				}
			}
		}
		if samples < 300*3 {
			t.Errorf("300 streams have %d samples, want at least 900", samples)
		}
		want := map[string]struct {
			n   int
			min int
			of  string
		}{
			"long-rtt-decay": {lateMoves, 100, "samples right after a decay kept past the warm-up"},
			"app-limited":    {boundary, 20, "samples with inflight == limit/2 exactly"},
			"gradient-clamp": {lowClamp, 100, "samples clamped to 0.5"},
			"floor-ceiling":  {limitClamp, 100, "samples clamped into [MinLimit, MaxLimit]"},
		}
		if w, ok := want[name]; ok && w.n < w.min {
			t.Errorf("300 streams have %d %s, want at least %d", w.n, w.of, w.min)
		}
	})
}

func TestReferencePassesEveryCheck(t *testing.T) {
	checktest.ReferencePasses(t, Checks.Suite, API(reference), 5, 25)
}

// TestMistakes runs the tests of the suite's error models (see
// checktest.Mistakes).
func TestMistakes(t *testing.T) { checktest.Mistakes(t, Checks) }

func TestEveryPropertyHasADomain(t *testing.T) {
	checktest.EveryPropertyHasADomain(t, Checks.Suite(nil), Checks.Domains)
}
