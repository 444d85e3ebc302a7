package governor_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"ratelab/lab/adaptive"
	"ratelab/lab/governor"
	"ratelab/lab/internal/labtest"
	"ratelab/lab/target"
)

// propertySeed is fixed so that a failure prints the same counterexample on
// every run; change it to explore.
const propertySeed = 20260404

// run runs n windows of cfg with the reference governor and returns a copy
// of them.
func run(t testing.TB, cfg governor.Config, n int) []governor.Window {
	t.Helper()
	r, err := governor.New(cfg, adaptive.Reference)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	return slices.Clone(r.Step(n))
}

// withSeed returns the default configuration against target name, with a
// seed.
func withSeed(name string, seed uint64) governor.Config {
	cfg := governor.DefaultConfig(name)
	cfg.Seed = seed
	return cfg
}

// leq reports whether a <= b up to the relative 1e-9 the contract allows.
func leq(a, b float64) bool { return a <= b+1e-9*math.Abs(b) }

// TestRobustSlowStart: against a target that can take the ceiling, the
// offer climbs from the floor to the ceiling by doubling, reaching it after
// ceil(log2(ceiling/floor)) clean windows, and no attempt ever fails.
func TestRobustSlowStart(t *testing.T) {
	p := labtest.Properties(t, propertySeed, 200)
	p.Property("floor to ceiling in log2(ceiling/floor) clean windows", prop.ForAll(
		func(floor, extra int, seed uint64) bool {
			ceiling := min(floor+extra, 380) // the robust target serves 384 at worst
			cfg := withSeed(target.RobustName, seed)
			cfg.Floor, cfg.Ceiling = float64(floor), float64(ceiling)
			want := int(math.Ceil(math.Log2(float64(ceiling) / float64(floor))))
			ws := run(t, cfg, want+10)
			for _, w := range ws {
				reached := w.Offer == cfg.Ceiling
				if reached != (w.Index >= want) || w.Counts.AttemptFailures != 0 || w.Decision.Action != adaptive.Double {
					t.Logf("floor %d, ceiling %d: window %d offers %v (%d of %d attempts failed): %s; want the ceiling from window %d on, no failure",
						floor, ceiling, w.Index, w.Offer, w.Counts.AttemptFailures, w.Counts.Attempts, w.Decision.Reason, want)
					return false
				}
			}
			return true
		},
		gen.IntRange(1, 60),
		gen.IntRange(0, 400),
		gen.UInt64(),
	))
	p.TestingRun(t)
}

// TestFragileStaysNearCapacity: against the fragile target the offer
// overshoots its capacity at most once, by slow start's one doubling (less
// than 2x), and after the first back-off never runs more than a probe
// step and the noise past it.
func TestFragileStaysNearCapacity(t *testing.T) {
	worst := 0.0
	for seed := uint64(1); seed <= 200; seed++ {
		backedOff := false
		for _, w := range run(t, withSeed(target.FragileName, seed), 150) {
			ratio := w.Offer / w.Capacity
			if backedOff {
				worst = max(worst, ratio)
			}
			switch {
			case ratio >= 2:
				t.Fatalf("seed %d, window %d: offer %v against capacity %v", seed, w.Index, w.Offer, w.Capacity)
			case backedOff && ratio > 1.1:
				t.Fatalf("seed %d, window %d: offer %v after a back-off, more than 1.1x capacity %v", seed, w.Index, w.Offer, w.Capacity)
			}
			backedOff = backedOff || w.Decision.Action == adaptive.BackOff
		}
		if !backedOff {
			t.Fatalf("seed %d: the fragile target never made the governor back off", seed)
		}
	}
	t.Logf("after the first back-off, the offer reached at most %.3f times the capacity", worst)
}

// TestNoMultiplicativeClimbIntoTheWall: once a back-off has set the memory,
// a clean window climbs x1.5 only up to 75% of it; past that, every step is
// additive, max(1, 2% of the memory).
func TestNoMultiplicativeClimbIntoTheWall(t *testing.T) {
	for _, name := range target.Names {
		for seed := uint64(1); seed <= 30; seed++ {
			lastBad := 0.0 // the memory entering the window
			for _, w := range run(t, withSeed(name, seed), 120) {
				d := w.Decision
				if lastBad > 0 && d.Action != adaptive.BackOff && d.Action != adaptive.Hold {
					limit := max(min(1.5*w.Offer, 0.75*lastBad), w.Offer+max(1, 0.02*lastBad))
					if !leq(d.Offer, limit) {
						t.Fatalf("%s, seed %d, window %d: offer %v -> %v with last bad %v; want at most %v (%s)",
							name, seed, w.Index, w.Offer, d.Offer, lastBad, limit, d.Reason)
					}
				}
				lastBad = d.LastBad
			}
		}
	}
}

// TestHealthierClearsTheMemory: when the caches warm up, the probes climb
// past the old congestion point, three clean windows there clear the
// memory, and the next window doubles again.
func TestHealthierClearsTheMemory(t *testing.T) {
	p, _ := target.Named(target.HealthierName)
	warm := int(p.Changes[0].AtNs / governor.WindowNs)
	for seed := uint64(1); seed <= 50; seed++ {
		ws := run(t, withSeed(target.HealthierName, seed), 80)
		cleared := -1
		for i := 1; i < len(ws); i++ {
			if ws[i-1].Decision.LastBad > 0 && ws[i].Decision.LastBad == 0 {
				cleared = i
				break
			}
		}
		switch {
		case cleared < 0:
			t.Fatalf("seed %d: the memory never cleared in 80 windows", seed)
		case cleared < warm:
			t.Fatalf("seed %d: the memory cleared at window %d, before the caches warmed at %d", seed, cleared, warm)
		case !strings.Contains(ws[cleared].Decision.Reason, "memory cleared"):
			t.Errorf("seed %d: the clearing window's reason %q does not say so", seed, ws[cleared].Decision.Reason)
		}
		next := ws[cleared+1]
		if next.Decision.Action != adaptive.Double || next.Decision.Offer != min(2*next.Offer, 200) {
			t.Fatalf("seed %d: after the memory cleared at window %d, window %d: %s; want a doubling", seed, cleared, next.Index, next.Decision.Reason)
		}
	}
}

// TestDegradesBacksOffBySeverity: when the compaction starts the failure
// fraction jumps, and the back-off multiplies by clamp(1-frac, 0.25, 0.9):
// the worse the window, the deeper the cut.
func TestDegradesBacksOffBySeverity(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		deepest := 1.0
		for _, w := range run(t, withSeed(target.DegradesName, seed), 60) {
			if w.Decision.Action != adaptive.BackOff {
				continue
			}
			frac := w.AttemptFailure()
			factor := min(max(1-frac, 0.25), 0.9)
			if want := max(10, w.Offer*factor); math.Abs(w.Decision.Offer-want) > 1e-9*want {
				t.Fatalf("seed %d, window %d: frac %.3f at offer %v backed off to %v, want %v", seed, w.Index, frac, w.Offer, w.Decision.Offer, want)
			}
			if w.Index >= 25 {
				deepest = min(deepest, factor)
			}
		}
		if deepest > 0.6 {
			t.Errorf("seed %d: the compaction's deepest back-off was x%.2f; want a deep cut for a severe breach", seed, deepest)
		}
	}
}

// TestRetriesHideSaturation: without a governor, a client at its ceiling
// against a target that serves less sees a fifth of its attempts fail while
// more than 95% of its requests succeed: the dashboard stays green.
func TestRetriesHideSaturation(t *testing.T) {
	cfg := withSeed(target.DegradesName, 3)
	cfg.Fixed = true
	for _, w := range run(t, cfg, 20) {
		if w.AttemptFailure() < 0.15 || w.OK() < 0.95 || w.Offer != cfg.Ceiling || w.Moved() {
			t.Errorf("window %d: offer %v, attempt failure %.3f, ok %.3f, moved %v; want the ceiling, >= 0.15, >= 0.95, no movement",
				w.Index, w.Offer, w.AttemptFailure(), w.OK(), w.Moved())
		}
	}
}

// TestStepsDoNotMatter: the same run cut into steps of different sizes
// gives the same windows.
func TestStepsDoNotMatter(t *testing.T) {
	for _, name := range target.Names {
		want := run(t, withSeed(name, 5), 90)
		for _, size := range []int{1, 7, 64} {
			r, _ := governor.New(withSeed(name, 5), adaptive.Reference)
			var got []governor.Window
			for len(got) < 90 {
				got = append(got, r.Step(min(size, 90-len(got)))...)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s in steps of %d: windows differ from one step of 90", name, size)
			}
			if r.Windows() != 90 || r.Offer() != want[89].Decision.Offer || r.LastBad() != want[89].Decision.LastBad {
				t.Errorf("%s in steps of %d: Windows %d, Offer %v, LastBad %v; want 90 and the last decision's", name, size, r.Windows(), r.Offer(), r.LastBad())
			}
		}
	}
}

// stub panics like an exercise stub.
type stub struct{}

func (stub) Observe(uint64, uint64) adaptive.Decision {
	panic("governor: Observe is not implemented yet")
}
func (stub) Offer() float64 { panic("governor: Offer is not implemented yet") }

// flaky is a governor that works for a few windows, then panics.
type flaky struct{ left int }

func (f *flaky) Observe(uint64, uint64) adaptive.Decision {
	if f.left == 0 {
		panic(errors.New("index out of range [5] with length 5"))
	}
	f.left--
	return adaptive.Decision{Action: adaptive.Probe, Offer: 12, Reason: "mine"}
}
func (f *flaky) Offer() float64 { return 11 }

func TestLearnerCodeStopsTheRun(t *testing.T) {
	tests := []struct {
		name    string
		impl    adaptive.Impl
		windows int
		status  string
	}{
		{"stub New", adaptive.Impl{Name: "Yours", NewGovernor: func(adaptive.GovernorConfig) adaptive.Governor {
			panic("governor: New is not implemented yet")
		}}, 0, "Yours: not implemented yet"},
		{"stub methods", adaptive.Impl{Name: "Yours", NewGovernor: func(adaptive.GovernorConfig) adaptive.Governor {
			return stub{}
		}}, 0, "Yours: not implemented yet"},
		{"nil governor", adaptive.Impl{Name: "Yours", NewGovernor: func(adaptive.GovernorConfig) adaptive.Governor {
			return nil
		}}, 0, "Yours: panicked: New returned nil"},
		{"does not build", adaptive.Impl{Name: "Yours", Missing: "your code does not build"}, 0, "Yours: your code does not build"},
		{"panics at window 4", adaptive.Impl{Name: "Yours", NewGovernor: func(adaptive.GovernorConfig) adaptive.Governor {
			return &flaky{left: 3}
		}}, 4, "Yours: panicked: index out of range [5] with length 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := governor.New(governor.DefaultConfig(target.FragileName), tt.impl)
			if err != nil {
				t.Fatal(err)
			}
			ws := r.Step(10)
			if len(ws) != tt.windows || !r.Stopped() || r.ImplStatus() != tt.status {
				t.Fatalf("%d windows, stopped %v, ImplStatus %q; want %d, true, %q", len(ws), r.Stopped(), r.ImplStatus(), tt.windows, tt.status)
			}
			if tt.windows > 0 {
				last := ws[len(ws)-1]
				if last.Decision.Action != adaptive.Hold || !strings.HasPrefix(last.Decision.Reason, "governor stopped: panicked") {
					t.Errorf("the window the governor panicked in decided %v: %q; want a hold saying it stopped", last.Decision.Action, last.Decision.Reason)
				}
				if ws[0].Offer != 11 || ws[1].Offer != 12 {
					t.Errorf("offers %v, %v; want the learner's 11 (Offer) then 12 (Observe)", ws[0].Offer, ws[1].Offer)
				}
			}
			if more := r.Step(10); len(more) != 0 {
				t.Errorf("a stopped run ran %d more windows", len(more))
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	ok := governor.DefaultConfig(target.RobustName)
	labtest.Validation(t, ok, []labtest.ConfigCase[governor.Config]{
		{Name: "valid", Modify: func(*governor.Config) {}},
		{Name: "fixed", Modify: func(c *governor.Config) { c.Fixed = true }},
		{Name: "floor below 1", Modify: func(c *governor.Config) { c.Floor = 0.5 }, Want: "floor"},
		{Name: "floor NaN", Modify: func(c *governor.Config) { c.Floor = math.NaN() }, Want: "floor"},
		{Name: "ceiling below floor", Modify: func(c *governor.Config) { c.Ceiling = 5 }, Want: "ceiling"},
		{Name: "ceiling too high", Modify: func(c *governor.Config) { c.Ceiling = governor.MaxCeiling + 1 }, Want: "ceiling"},
		{Name: "negative start", Modify: func(c *governor.Config) { c.Start = -1 }, Want: "start"},
		{Name: "band upside down", Modify: func(c *governor.Config) { c.Low, c.High = 0.1, 0.05 }, Want: "low"},
		{Name: "high of 1", Modify: func(c *governor.Config) { c.High = 1 }, Want: "high"},
		{Name: "no tries", Modify: func(c *governor.Config) { c.Tries = 0 }, Want: "tries"},
		{Name: "too many tries", Modify: func(c *governor.Config) { c.Tries = governor.MaxTries + 1 }, Want: "tries"},
		{Name: "unknown target", Modify: func(c *governor.Config) { c.Target = "flaky" }, Want: "flaky"},
	}, governor.Config.Validate, func(c governor.Config) error { _, err := governor.New(c, adaptive.Reference); return err })
}

func TestEncodeStep(t *testing.T) {
	r, _ := governor.New(governor.DefaultConfig(target.FragileName), adaptive.Reference)
	r.Step(2)
	ws := r.Step(2) // windows 2 and 3: a back-off, then a recovery
	buf := r.EncodeStep(nil, ws)
	nums := governor.StepHeader + 2*governor.WindowFields
	f := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(buf[8*i:])) }
	win := func(k, field int) float64 { return f(governor.StepHeader + k*governor.WindowFields + field) }
	checks := []struct {
		name      string
		got, want float64
	}{
		{"count", f(governor.StepCount), 2},
		{"stopped", f(governor.StepStopped), 0},
		{"offer", f(governor.StepOffer), r.Offer()},
		{"last bad", f(governor.StepLastBad), 40},
		{"capacity", f(governor.StepCapacity), 30},
		{"windows", f(governor.StepWindows), 4},
		{"index", win(0, governor.WinIndex), 2},
		{"offer during", win(0, governor.WinOffer), 40},
		{"slots", win(0, governor.WinSlots), 40},
		{"attempts", win(0, governor.WinAttempts), 400},
		{"failures", win(0, governor.WinAttemptFailures), float64(ws[0].Counts.AttemptFailures)},
		{"action", win(0, governor.WinAction), float64(adaptive.BackOff)},
		{"next offer", win(0, governor.WinNextOffer), ws[0].Decision.Offer},
		{"second action", win(1, governor.WinAction), float64(adaptive.Recover)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	reasons := buf[8*nums:]
	n0 := int(win(0, governor.WinReasonBytes))
	if string(reasons[:n0]) != ws[0].Decision.Reason || string(reasons[n0:]) != ws[1].Decision.Reason {
		t.Errorf("reasons = %q, want %q then %q", reasons, ws[0].Decision.Reason, ws[1].Decision.Reason)
	}
	if len(buf) > governor.MaxStepBytes(2) {
		t.Errorf("EncodeStep wrote %d bytes, more than MaxStepBytes(2) = %d", len(buf), governor.MaxStepBytes(2))
	}
}

// A learner's Reason may be long; EncodeStep cuts it at a character.
func TestEncodeStepClipsReasons(t *testing.T) {
	long := strings.Repeat("é", governor.MaxReasonBytes) // two bytes each
	impl := adaptive.Impl{Name: "Yours", NewGovernor: func(adaptive.GovernorConfig) adaptive.Governor {
		return &talker{long + "x"}
	}}
	r, _ := governor.New(governor.DefaultConfig(target.RobustName), impl)
	buf := r.EncodeStep(nil, r.Step(1))
	text := buf[8*(governor.StepHeader+governor.WindowFields):]
	if len(text) > governor.MaxReasonBytes || !bytes.HasPrefix([]byte(long), text) || len(text)%2 != 0 {
		t.Errorf("a reason of %d bytes was written as %d bytes %q", len(long)+1, len(text), text)
	}
}

type talker struct{ reason string }

func (g *talker) Observe(uint64, uint64) adaptive.Decision {
	return adaptive.Decision{Action: adaptive.Hold, Offer: 10, Reason: g.reason}
}
func (g *talker) Offer() float64 { return 10 }

// A learner's governor may return any offer; the run still sends between
// 1 and MaxCeiling attempts per round.
func TestWildOffers(t *testing.T) {
	for _, offer := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -5, 0, 0.5, 1e300} {
		impl := adaptive.Impl{Name: "Yours", NewGovernor: func(adaptive.GovernorConfig) adaptive.Governor {
			return fixedOffer(offer)
		}}
		r, _ := governor.New(governor.DefaultConfig(target.RobustName), impl)
		for _, w := range r.Step(3) {
			if w.Slots < 1 || w.Slots > governor.MaxCeiling {
				t.Errorf("offer %v: %d slots per round", offer, w.Slots)
			}
		}
	}
}

type fixedOffer float64

func (f fixedOffer) Observe(uint64, uint64) adaptive.Decision {
	return adaptive.Decision{Action: adaptive.Probe, Offer: float64(f)}
}
func (f fixedOffer) Offer() float64 { return float64(f) }
