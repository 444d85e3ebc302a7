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
					exact, half := m.exact, m.est/2
					smp := m.update(o.RTT, o.Inflight)
					samples++
					if !smp.appLimited && decayed {
						lateMoves++ // a sample that shows a kept decay
					}
					decayed = smp.decays && m.seen == warmup
					if !smp.appLimited && smp.raw < 0.5 {
						lowClamp++
					}
					if !smp.appLimited && smp.est != smp.smoothed {
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

// TestModelWarmupAndDecay pins the model's long RTT down on the contract's
// own words: the mean of the first 10, then the average, the decay kept
// for the next sample.
func TestModelWarmupAndDecay(t *testing.T) {
	m := newModel(Config{InitialLimit: 100, MinLimit: 1, MaxLimit: 1000, Smoothing: 1, RTTTolerance: 1, LongWindow: 3})
	for i, x := range []uint64{100, 300} {
		m.update(x, 1000)
		if want := []float64{100, 200}[i]; m.long != want {
			t.Fatalf("after sample %d the long RTT is %v; want %v", i+1, m.long, want)
		}
	}
	for range 8 {
		m.update(200, 1000)
	}
	smp := m.update(50, 0) // 0.5*200 + 0.5*50 = 125 > 2*50
	if smp.long != 125 || !smp.decays || m.long != 125*0.95 || !smp.appLimited {
		t.Errorf("decaying sample: used %v (want 125), stored %v (want 118.75), decays %t, app-limited %t", smp.long, m.long, smp.decays, smp.appLimited)
	}
}

// TestMistakes runs the tests of the suite's error models (see
// checktest.Mistakes).
func TestMistakes(t *testing.T) { checktest.Mistakes(t, Checks) }

func TestEveryPropertyHasADomain(t *testing.T) {
	checktest.EveryPropertyHasADomain(t, Checks.Suite(nil), Checks.Domains)
}
