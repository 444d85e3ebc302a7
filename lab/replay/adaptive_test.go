package replay

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"ratelab/grader/report"
	fixdeadband "ratelab/grader/testdata/fixtures/governor/no-dead-band"
	fixgovernor "ratelab/grader/testdata/fixtures/governor/streak-not-reset"
	fixgradient2 "ratelab/grader/testdata/fixtures/gradient2/no-smoothing"
	"ratelab/lab/adaptive"
)

// fixtureGovernor is the streak-not-reset fixture (a window without
// evidence does not restart the streak) as Yours.
func fixtureGovernor() Impls {
	return Impls{
		Adaptive: adaptive.Impl{Name: "Yours", NewGovernor: func(c adaptive.GovernorConfig) adaptive.Governor {
			return fixGovernor{fixgovernor.New(fixgovernor.Config{Floor: c.Floor, Ceiling: c.Ceiling, Start: c.Start, Low: c.Low, High: c.High})}
		}},
		Week4: Week4{MemoryClearStep: fixgovernor.MemoryClearStep, Decide: func(c adaptive.GovernorConfig, frac, current, lastBad float64) adaptive.Decision {
			d := fixgovernor.Decide(fixgovernor.Config{Floor: c.Floor, Ceiling: c.Ceiling, Start: c.Start, Low: c.Low, High: c.High}, frac, current, lastBad)
			return adaptive.Decision{Action: adaptive.Action(d.Action), Offer: d.Offer, LastBad: d.LastBad}
		}},
	}
}

// fixtureDeadBand is the no-dead-band fixture (a window between Low and
// High counts as clean) as Yours: its Decide.
func fixtureDeadBand() Impls {
	return Impls{Week4: Week4{Decide: func(c adaptive.GovernorConfig, frac, current, lastBad float64) adaptive.Decision {
		d := fixdeadband.Decide(fixdeadband.Config{Floor: c.Floor, Ceiling: c.Ceiling, Start: c.Start, Low: c.Low, High: c.High}, frac, current, lastBad)
		return adaptive.Decision{Action: adaptive.Action(d.Action), Offer: d.Offer, LastBad: d.LastBad}
	}}, Adaptive: adaptive.Impl{NewGovernor: func(c adaptive.GovernorConfig) adaptive.Governor {
		return fixDeadBand{fixdeadband.New(fixdeadband.Config{Floor: c.Floor, Ceiling: c.Ceiling, Start: c.Start, Low: c.Low, High: c.High})}
	}}}
}

type fixDeadBand struct{ g *fixdeadband.Governor }

func (f fixDeadBand) Observe(a, b uint64) adaptive.Decision {
	d := f.g.Observe(a, b)
	return adaptive.Decision{Action: adaptive.Action(d.Action), Offer: d.Offer, LastBad: d.LastBad}
}
func (f fixDeadBand) Offer() float64 { return f.g.Offer() }

// The pure Decide's replay: a report carries its setup as "cfg =
// Config{…}" without setup_call, and the fixture's Decide differs where
// the grade says.
func TestGovernorDecideReplaysTheGrade(t *testing.T) {
	if n := replayCaptured(t, "governor", "no-dead-band", fixtureDeadBand()); n < 2 {
		t.Errorf("%d checks replayed, want dead-band's (Decide) and exactness' (Observe)", n)
	}
}

// The pure functions' models answer like the reference's Decide and
// MemoryClearStep on generated inputs, offers next to 75% of last_bad
// included.
func TestGovernorPureModelsAgreeWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	cfg := adaptive.GovernorConfig{Floor: 1, Ceiling: 50, Low: 0.01, High: 0.2}
	m := &DecideModel{Cfg: cfg}
	ref := decideCalls{cfg, Reference.Week4.Decide}
	for i := 0; i < 20000; i++ {
		lastBad := []float64{0, 4, 10, 40}[r.IntN(4)]
		current := []float64{1, 3, 0.75 * lastBad, 7.5, 50, 1 + 49*r.Float64()}[r.IntN(6)]
		frac := []float64{0, 0.01, 0.1, 0.2, 0.5, 0.95, r.Float64()}[r.IntN(7)]
		c := report.Call{Name: "Decide", Args: map[string]any{"cfg": "cfg", "frac": frac, "current": current, "lastBad": lastBad}}
		got, _ := m.Do(c)
		want, _ := ref.Do(c)
		if got != want {
			t.Fatalf("Decide(cfg, %v, %v, %v): model %s, reference %s", frac, current, lastBad, got, want)
		}
	}
	sm, sref := &StreakModel{}, streakCalls{Reference.Week4.MemoryClearStep}
	for streak := 0; streak < MemoryClearStreak; streak++ {
		for _, ev := range []bool{false, true} {
			c := report.Call{Name: "MemoryClearStep", Args: map[string]any{"streak": strconv.Itoa(streak), "cleanAtOrAboveLastBad": ev}}
			got, _ := sm.Do(c)
			want, _ := sref.Do(c)
			if got != want {
				t.Errorf("MemoryClearStep(%d, %v): model %s, reference %s", streak, ev, got, want)
			}
		}
	}
}

type fixGovernor struct{ g *fixgovernor.Governor }

func (f fixGovernor) Observe(a, b uint64) adaptive.Decision {
	d := f.g.Observe(a, b)
	return adaptive.Decision{Action: adaptive.Action(d.Action), Offer: d.Offer, LastBad: d.LastBad}
}
func (f fixGovernor) Offer() float64 { return f.g.Offer() }

func TestGovernorReplaysTheGrade(t *testing.T) {
	replayCaptured(t, "governor", "streak-not-reset", fixtureGovernor())
}

func TestGradient2ReplaysTheGrade(t *testing.T) {
	replayCaptured(t, "gradient2", "no-smoothing", Impls{Adaptive: adaptive.Impl{Name: "Yours", NewLimit: func(c adaptive.LimitConfig) adaptive.Limit {
		return fixgradient2.New(fixgradient2.Config{InitialLimit: c.InitialLimit, MinLimit: c.MinLimit, MaxLimit: c.MaxLimit, Smoothing: c.Smoothing, RTTTolerance: c.RTTTolerance, LongWindow: c.LongWindow})
	}}})
}

// The governor model answers like the reference, call for call, on
// generated configs and counter sequences (resets and empty windows
// included).
func TestGovernorModelAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for run := 0; run < 2000; run++ {
		floor := []float64{0.5, 1, 2, 10}[r.IntN(4)]
		cfg := adaptive.GovernorConfig{Floor: floor, Ceiling: floor * []float64{1, 2, 10, 100}[r.IntN(4)]}
		cfg.Start = []float64{0, floor, cfg.Ceiling, 3.7, 1000}[r.IntN(5)]
		cfg.Low = []float64{0, 0.01, 0.1}[r.IntN(3)]
		cfg.High = cfg.Low + []float64{0, 0.05, 0.3}[r.IntN(3)]
		ref := adaptive.Reference.NewGovernor(cfg)
		m := NewGovernorModel(cfg)
		var f, res uint64
		for i := 0; i < 40; i++ {
			switch r.IntN(12) {
			case 0:
				f, res = r.Uint64N(f+1), r.Uint64N(res+1) // a reset (or nothing new)
			case 1: // an empty window
			default:
				n := 1 + r.Uint64N(20)
				res += n
				switch r.IntN(3) {
				case 0:
					f += r.Uint64N(n + 1)
				case 1:
					f += r.Uint64N(2)
				}
			}
			f = min(f, res)
			c := report.Call{Name: "Observe", Args: map[string]any{"cumFailures": u64s(f), "cumResolved": u64s(res)}}
			got, err := m.Do(c)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := governorCalls{ref}.Do(c)
			if got != want {
				t.Fatalf("run %d step %d: cfg %+v: model Observe(%d, %d) = %s, reference %s", run, i, cfg, f, res, got, want)
			}
		}
	}
}

func TestGradient2ModelAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for run := 0; run < 2000; run++ {
		cfg := adaptive.LimitConfig{
			InitialLimit: []float64{1, 20, 50, 300}[r.IntN(4)], MinLimit: []float64{0, 1, 20}[r.IntN(3)], MaxLimit: []float64{20, 200, 1000}[r.IntN(3)],
			Smoothing: []float64{0, 0.2, 0.5, 1}[r.IntN(4)], RTTTolerance: []float64{1, 1.5, 3}[r.IntN(3)], LongWindow: []int{1, 5, 600}[r.IntN(3)],
		}
		queueText := []string{"nil", "func(int) float64 { return 0 }", "func(int) float64 { return 8 }", "func(l int) float64 { return math.Sqrt(float64(l)) }", "func(l int) float64 { return float64(l) / 10 }"}[r.IntN(5)]
		queue := queueSizes[queueText]
		ref := Reference.Week4.NewLimit(cfg, queue)
		m := NewGradient2Model(cfg, queue)
		for i := 0; i < 60; i++ {
			rtt := uint64(1_000_000 * (1 + r.IntN(60)))
			if r.IntN(20) == 0 {
				rtt = []uint64{0, 1, math.MaxUint64}[r.IntN(3)]
			}
			in := r.IntN(2*int(max(1, m.Est))) - r.IntN(2)
			if got, want := m.Update(rtt, in), ref.Update(rtt, in); got != want {
				t.Fatalf("run %d step %d: cfg %+v, QueueSize %s: model Update(%d, %d) = %d, reference %d", run, i, cfg, queueText, rtt, in, got, want)
			}
		}
	}
}

func u64s(n uint64) string { return strconv.FormatUint(n, 10) }
