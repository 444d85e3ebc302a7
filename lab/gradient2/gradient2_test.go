package gradient2_test

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"

	"ratelab/lab/adaptive"
	"ratelab/lab/gradient2"
	"ratelab/lab/internal/labtest"
)

const second = 1_000_000_000

// runFor runs cfg with the reference limit until untilNs and returns a copy
// of every bin.
func runFor(t testing.TB, cfg gradient2.Config, untilNs uint64) []gradient2.Bin {
	t.Helper()
	r, err := gradient2.New(cfg, adaptive.Reference)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	var bins []gradient2.Bin
	for r.Now() < untilNs {
		bins = append(bins, r.Step(untilNs, gradient2.MaxBins)...)
	}
	return bins
}

func seeded(seed uint64) gradient2.Config {
	cfg := gradient2.DefaultConfig()
	cfg.Seed = seed
	return cfg
}

// phase returns the bins whose start lies in [fromNs, toNs).
func phase(bins []gradient2.Bin, fromNs, toNs uint64) []gradient2.Bin {
	var out []gradient2.Bin
	for _, b := range bins {
		if b.StartNs >= fromNs && b.StartNs < toNs {
			out = append(out, b)
		}
	}
	return out
}

func TestStepsDoNotMatter(t *testing.T) {
	want := runFor(t, seeded(3), 45*second)
	for _, stepNs := range []uint64{gradient2.BinNs, 16_700_000, 3 * second} {
		r, _ := gradient2.New(seeded(3), adaptive.Reference)
		var got []gradient2.Bin
		for until := stepNs; r.Now() < 45*second; until += stepNs {
			got = append(got, r.Step(min(until, 45*second), 7)...)
		}
		if !slices.Equal(got, want) {
			t.Errorf("in steps of %d ns (7 bins at most): bins differ from one run", stepNs)
		}
	}
}

// TestCountsAddUp: every arrival is admitted or rejected; whatever was
// admitted and has not completed is in flight; the schedule's load is the
// bin's.
func TestCountsAddUp(t *testing.T) {
	bins := runFor(t, seeded(1), 80*second)
	var admitted, samples uint64
	for i, b := range bins {
		admitted += b.Admitted
		samples += b.Samples
		switch {
		case b.Arrived != b.Admitted+b.Rejected:
			t.Fatalf("bin %d: %d arrived, %d admitted + %d rejected", i, b.Arrived, b.Admitted, b.Rejected)
		case admitted-samples != uint64(b.Inflight):
			t.Fatalf("bin %d: %d admitted, %d completed, but %d in flight", i, admitted, samples, b.Inflight)
		case b.AppLimited > b.Samples:
			t.Fatalf("bin %d: %d app-limited of %d samples", i, b.AppLimited, b.Samples)
		case b.StartNs != uint64(i)*gradient2.BinNs:
			t.Fatalf("bin %d starts at %d", i, b.StartNs)
		}
	}
	if want := []float64{0.5, 1.3, 0.5, 2}; bins[0].Load != want[0] || bins[250].Load != want[1] || bins[450].Load != want[2] || bins[650].Load != want[3] || bins[850].Load != want[0] {
		t.Errorf("loads at 0, 12.5, 22.5, 32.5 and 42.5 s: %v %v %v %v %v; want the schedule %v, repeated",
			bins[0].Load, bins[250].Load, bins[450].Load, bins[650].Load, bins[850].Load, want)
	}
}

// TestLimitFollowsLoad: at half load nothing is rejected once the limit
// has settled; under overload the short RTT rises over the long one and
// the limit falls below what it was, turning requests away; at twice the
// throughput it stays low.
func TestLimitFollowsLoad(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		bins := runFor(t, seeded(seed), 40*second)
		calm := phase(bins, 2*second, 10*second)
		before := calm[len(calm)-1].Limit
		for _, b := range calm {
			if b.Rejected > 0 {
				t.Fatalf("seed %d: %d rejected at %d ms at half load", seed, b.Rejected, b.StartNs/1e6)
			}
		}
		var rejected uint64
		lowest := math.MaxInt
		for _, b := range phase(bins, 10*second, 20*second) {
			rejected += b.Rejected
			lowest = min(lowest, b.Limit)
		}
		if rejected == 0 || lowest >= before {
			t.Errorf("seed %d, load 1.3: %d rejected, lowest limit %d; want rejections and a limit below %d", seed, rejected, lowest, before)
		}
		heavy := phase(bins, 32*second, 40*second)
		var sum float64
		for _, b := range heavy {
			sum += float64(b.Limit)
		}
		if mean := sum / float64(len(heavy)); mean > 60 {
			t.Errorf("seed %d, load 2: mean limit %.1f, want it held low (at most 60)", seed, mean)
		}
	}
}

// TestAppLimited: at half load about 10 requests are in flight; once the
// limit is past twice that, every sample is app-limited and the limit
// stops growing.
func TestAppLimited(t *testing.T) {
	bins := runFor(t, seeded(2), 10*second)
	var samples, app uint64
	for _, b := range phase(bins, 5*second, 10*second) {
		samples += b.Samples
		app += b.AppLimited
	}
	if float64(app) < 0.9*float64(samples) {
		t.Errorf("at half load %d of %d samples app-limited, want at least 90%%", app, samples)
	}
	last := bins[len(bins)-1].Limit
	if last > 60 {
		t.Errorf("limit %d after 10 s at half load: it grew on app-limited samples", last)
	}
}

// TestLongRTTDecays: after an overload the long RTT is several times the
// service time; once the load drops it decays by 5% per sample while it is
// more than twice the short RTT, back to the service time within 2 s.
func TestLongRTTDecays(t *testing.T) {
	bins := runFor(t, seeded(1), 23*second)
	atEnd := phase(bins, 20*second-gradient2.BinNs, 20*second)[0].LongRTT
	after := phase(bins, 22*second, 22*second+gradient2.BinNs)[0].LongRTT
	if atEnd < 2e8 || after > 1.5e8 {
		t.Errorf("long RTT %.0f ms at the end of the overload, %.0f ms 2 s later; want over 200 then under 150", atEnd/1e6, after/1e6)
	}
}

type stubLimit struct{}

func (stubLimit) Update(uint64, int) int { panic("gradient2: Update is not implemented yet") }
func (stubLimit) Limit() int             { return 20 }

type dying struct{ left int }

func (d *dying) Update(uint64, int) int {
	if d.left == 0 {
		panic(errors.New("integer divide by zero"))
	}
	d.left--
	return 20
}
func (d *dying) Limit() int { return 20 }

func TestLearnerCodeStopsTheRun(t *testing.T) {
	tests := []struct {
		name   string
		impl   adaptive.Impl
		bins   bool // whether some bins run before it stops
		status string
	}{
		{"stub New", adaptive.Impl{Name: "Yours", NewLimit: func(adaptive.LimitConfig) adaptive.Limit {
			panic("gradient2: New is not implemented yet")
		}}, false, "Yours: not implemented yet"},
		{"stub Update", adaptive.Impl{Name: "Yours", NewLimit: func(adaptive.LimitConfig) adaptive.Limit {
			return stubLimit{}
		}}, true, "Yours: not implemented yet"}, // the bins before the first sample
		{"does not build", adaptive.Impl{Name: "Yours", Missing: "your code does not build"}, false, "Yours: your code does not build"},
		{"panics later", adaptive.Impl{Name: "Yours", NewLimit: func(adaptive.LimitConfig) adaptive.Limit {
			return &dying{left: 100}
		}}, true, "Yours: panicked: integer divide by zero"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := gradient2.New(gradient2.DefaultConfig(), tt.impl)
			if err != nil {
				t.Fatal(err)
			}
			var n int
			for range 100 {
				n += len(r.Step(r.Now()+second, gradient2.MaxBins))
			}
			if (n > 0) != tt.bins || !r.Stopped() || r.ImplStatus() != tt.status {
				t.Errorf("%d bins, stopped %v, ImplStatus %q; want bins %v, stopped, %q", n, r.Stopped(), r.ImplStatus(), tt.bins, tt.status)
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	labtest.Validation(t, gradient2.DefaultConfig(), []labtest.ConfigCase[gradient2.Config]{
		{Name: "valid", Modify: func(*gradient2.Config) {}},
		{Name: "no workers", Modify: func(c *gradient2.Config) { c.Workers = 0 }, Want: "workers"},
		{Name: "instant service", Modify: func(c *gradient2.Config) { c.ServiceNs = 10 }, Want: "service"},
		{Name: "noise 1", Modify: func(c *gradient2.Config) { c.Noise = 1 }, Want: "noise"},
		{Name: "no steps", Modify: func(c *gradient2.Config) { c.Steps = nil }, Want: "step"},
		{Name: "empty step", Modify: func(c *gradient2.Config) { c.Steps = []gradient2.Step{{0, 1}} }, Want: "step"},
		{Name: "negative load", Modify: func(c *gradient2.Config) { c.Steps = []gradient2.Step{{second, -1}} }, Want: "load"},
	}, gradient2.Config.Validate, func(c gradient2.Config) error { _, err := gradient2.New(c, adaptive.Reference); return err })
}

// A schedule with a silent step: no arrival, no sample, the limit holds.
func TestSilentStep(t *testing.T) {
	cfg := gradient2.DefaultConfig()
	cfg.Steps = []gradient2.Step{{2 * second, 0.5}, {2 * second, 0}}
	bins := runFor(t, cfg, 8*second)
	for _, b := range phase(bins, 2*second+gradient2.BinNs*40, 4*second) {
		if b.Arrived != 0 || b.Inflight != 0 {
			t.Fatalf("silent step, %d ms: %d arrived, %d in flight", b.StartNs/1e6, b.Arrived, b.Inflight)
		}
	}
	if phase(bins, 4*second, 6*second)[10].Arrived == 0 && phase(bins, 4*second, 6*second)[20].Arrived == 0 {
		t.Error("no arrivals after the silent step")
	}
}

func TestEncodeStep(t *testing.T) {
	r, _ := gradient2.New(gradient2.DefaultConfig(), adaptive.Reference)
	r.Step(second, gradient2.MaxBins)
	bins := r.Step(second+2*gradient2.BinNs, gradient2.MaxBins)
	buf := r.EncodeStep(nil, bins)
	if len(buf) != gradient2.MaxStepBytes(2) {
		t.Fatalf("EncodeStep wrote %d bytes, want %d", len(buf), gradient2.MaxStepBytes(2))
	}
	f := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(buf[8*i:])) }
	bin := func(k, field int) float64 { return f(gradient2.StepHeader + k*gradient2.BinFields + field) }
	checks := []struct {
		name      string
		got, want float64
	}{
		{"count", f(gradient2.StepCount), 2},
		{"stopped", f(gradient2.StepStopped), 0},
		{"now", f(gradient2.StepNow), second + 2*gradient2.BinNs},
		{"limit", f(gradient2.StepLimit), float64(r.Limit())},
		{"short", f(gradient2.StepShortRTT), r.ShortRTT()},
		{"long", f(gradient2.StepLongRTT), r.LongRTT()},
		{"inflight", f(gradient2.StepInflight), float64(r.Inflight())},
		{"start", bin(1, gradient2.BinStart), second + gradient2.BinNs},
		{"load", bin(0, gradient2.BinLoad), 0.5},
		{"bin limit", bin(1, gradient2.BinLimit), float64(bins[1].Limit)},
		{"arrived", bin(0, gradient2.BinArrived), float64(bins[0].Arrived)},
		{"app-limited", bin(1, gradient2.BinAppLimited), float64(bins[1].AppLimited)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}
