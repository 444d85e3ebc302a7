package governor

import (
	"math/rand"
	"ratelab/grader/check"
	"testing"

	"ratelab/grader/harness"
	"ratelab/grader/report"
	ref "ratelab/solutions/governor"
)

var domains = map[string]domain{
	"slow-start":         slowStartDomain,
	"back-off":           backOffDomain,
	"dead-band":          deadBandDomain,
	"recover-then-probe": memoryDomain,
	"floor-ceiling":      floorCeilingDomain,
	"opening-offer":      openingDomain,
	"memory-clear":       memoryClearDomain,
	"windowing":          windowingDomain,
	"exactness":          exactDomain,
}

// TestDomainsGenerateValidScripts checks that every domain's generator keeps
// to its own rules, so gopter never discards a generated script, and that
// the scripts reach what their check is about.
func TestDomainsGenerateValidScripts(t *testing.T) {
	for name, d := range domains {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewSource(1))
			ops, clears, resets := 0, 0, 0
			for range 300 {
				s := d.gen(r, 100)
				if n := d.valid(s); n != len(s.Ops) {
					t.Fatalf("generated script leaves the domain at op %d: %+v", n, s)
				}
				ops += len(s.Ops)
				m := newModel(s.Setup)
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
			if avg := float64(ops) / 300; avg < float64(d.maxOps)/3 {
				t.Errorf("scripts average %.1f ops, want at least %d", avg, d.maxOps/3)
			}
			if name == "memory-clear" && clears < 50 {
				t.Errorf("300 scripts clear the memory %d times, want at least 50", clears)
			}
			if name == "windowing" && resets < 50 {
				t.Errorf("300 scripts reset the counters %d times, want at least 50", resets)
			}
		})
	}
}

type refGovernor struct{ g *ref.Governor }

func (a refGovernor) Observe(f, r uint64) Decision { return fromRef(a.g.Observe(f, r)) }
func (a refGovernor) Offer() float64               { return a.g.Offer() }
func (a refGovernor) LastBad() float64             { return a.g.LastBad() }

func toRef(c Config) ref.Config {
	return ref.Config{Floor: c.Floor, Ceiling: c.Ceiling, Start: c.Start, Low: c.Low, High: c.High}
}

func fromRef(d ref.Decision) Decision {
	return Decision{Action: Action(d.Action), Offer: d.Offer, LastBad: d.LastBad, Reason: d.Reason}
}

var reference = Impl{
	Decide: func(c Config, frac, current, lastBad float64) Decision {
		return fromRef(ref.Decide(toRef(c), frac, current, lastBad))
	},
	MemoryClearStep: ref.MemoryClearStep,
	New:             func(c Config) Governor { return refGovernor{ref.New(toRef(c))} },
}

func TestReferencePassesEveryCheck(t *testing.T) {
	s := Suite(harness.Local(API(reference)))
	if s.NotStarted() {
		t.Fatal("the reference reads as not started")
	}
	total := 0.0
	for _, c := range s.Checks {
		total += c.Points
		for seed := int64(1); seed <= 5; seed++ {
			if o := c.Run(seed); o.Status != report.Passed {
				t.Errorf("%s, seed %d: %s: %s %+v", c.ID, seed, o.Status, o.Message, o.Counterexample)
			}
		}
	}
	if total != 30 {
		t.Errorf("the checks' points add up to %v, want 30", total)
	}
}

func TestDecideMatchesTheContractsExamples(t *testing.T) {
	cfg := Config{Floor: 10, Ceiling: 100, Low: 0.01, High: 0.05}
	tests := []struct {
		frac, current, lastBad float64
		want                   decision
	}{
		{0.31, 100, 0, decision{BackOff, 69, 100}},
		{0.9, 20, 0, decision{BackOff, 10, 20}},
		{0.05, 40, 7, decision{Hold, 40, 7}},
		{0.01, 60, 0, decision{Double, 100, 0}},
		{0, 60, 100, decision{Recover, 75, 100}},
		{0, 75, 100, decision{Probe, 77, 100}},
		{0, 30, 40, decision{Probe, 31, 40}},
	}
	for _, tt := range tests {
		if got := decide(cfg, tt.frac, tt.current, tt.lastBad); !got.same(tt.want) {
			t.Errorf("decide(cfg, %v, %v, %v) = %v; want %v", tt.frac, tt.current, tt.lastBad, got, tt.want)
		}
	}
}

func TestEveryPropertyHasADomain(t *testing.T) {
	if m := check.MissingDomains(Suite(nil), domains); len(m) > 0 {
		t.Errorf("property checks without a generator in domains: %v", m)
	}
}
