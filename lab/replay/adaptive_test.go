package replay

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"ratelab/grader/report"
	fixgovernor "ratelab/grader/testdata/fixtures/governor/streak-not-reset"
	fixgradient2 "ratelab/grader/testdata/fixtures/gradient2/no-smoothing"
	"ratelab/lab/adaptive"
)

// fixtureGovernor is the streak-not-reset fixture (a window without
// evidence does not restart the streak) as Yours.
func fixtureGovernor() Impls {
	return Impls{Adaptive: adaptive.Impl{Name: "Yours", NewGovernor: func(c adaptive.GovernorConfig) adaptive.Governor {
		return fixGovernor{fixgovernor.New(fixgovernor.Config{Floor: c.Floor, Ceiling: c.Ceiling, Start: c.Start, Low: c.Low, High: c.High})}
	}}}
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
		ref := adaptive.Reference.NewLimit(cfg)
		m := NewGradient2Model(cfg)
		for i := 0; i < 60; i++ {
			rtt := uint64(1_000_000 * (1 + r.IntN(60)))
			if r.IntN(20) == 0 {
				rtt = []uint64{0, 1, math.MaxUint64}[r.IntN(3)]
			}
			in := r.IntN(2*int(max(1, m.Est))) - r.IntN(2)
			if got, want := m.Update(rtt, in), ref.Update(rtt, in); got != want {
				t.Fatalf("run %d step %d: cfg %+v: model Update(%d, %d) = %d, reference %d", run, i, cfg, rtt, in, got, want)
			}
		}
	}
}

func u64s(n uint64) string { return strconv.FormatUint(n, 10) }
