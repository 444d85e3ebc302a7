package gradient2_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"ratelab/solutions/gradient2"
)

// plain is a configuration that makes the arithmetic easy to follow:
// no smoothing (the new limit is taken whole), no queue allowance, no
// tolerance, so that each sample multiplies the limit by the gradient.
func plain(initial float64) gradient2.Config {
	return gradient2.Config{
		InitialLimit: initial, MinLimit: 1, MaxLimit: 1000,
		Smoothing: 1, RTTTolerance: 1, LongWindow: 600,
		QueueSize: func(int) float64 { return 0 },
	}
}

// sample is one Update call and the limit it must return.
type sample struct {
	rttNs    uint64
	inflight int
	want     int
}

// repeat returns n copies of s.
func repeat(n int, s sample) []sample {
	out := make([]sample, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestUpdate(t *testing.T) {
	withTolerance := plain(100)
	withTolerance.RTTTolerance = 1.5
	smooth := plain(100)
	smooth.Smoothing = 0.25
	smooth.QueueSize = nil // 4
	frozen := plain(100)
	frozen.Smoothing = 0
	clamped := plain(30)
	clamped.MinLimit, clamped.MaxLimit, clamped.QueueSize = 20, 35, nil
	short := plain(1000)
	short.LongWindow = 3 // factor 2/(3+1) = 0.5 after the warm-up
	outside := plain(5000)

	tests := []struct {
		name    string
		cfg     gradient2.Config
		samples []sample
	}{
		{"constant RTT: gradient 1, limit grows by the queue", func() gradient2.Config {
			c := plain(20)
			c.Smoothing, c.QueueSize = 0.5, nil
			return c
		}(), []sample{
			{1_000_000, 20, 22}, // 20*0.5 + (20+4)*0.5
			{1_000_000, 20, 24},
			{1_000_000, 20, 26},
		}},
		{"the long RTT warms up as the plain mean", plain(1000), []sample{
			{100, 1000, 1000}, // long 100: gradient 1
			{300, 1000, 666},  // long (100+300)/2 = 200: 1000*200/300
			{400, 1000, 444},  // long 800/3: 666.67*(800/3)/400
			{200, 1000, 444},  // long 250 > 200: gradient 1
		}},
		{"after 10 samples, an exponential average", short, append(repeat(10, sample{100, 1000, 1000}),
			sample{200, 1000, 750}, // long 0.5*100 + 0.5*200 = 150: gradient 0.75
		)},
		{"a long RTT over twice the short decays by 5%, from the next sample", short, append(repeat(10, sample{400, 1000, 1000}),
			sample{100, 0, 1000},   // app-limited; long 250 > 2*100: stored 237.5
			sample{300, 1000, 895}, // long 0.5*237.5 + 0.5*300 = 268.75: 1000*268.75/300
		)},
		{"a decay during the warm-up does not outlive it", plain(1000), []sample{
			{400, 1000, 1000},
			{100, 0, 1000},   // app-limited; mean 250 > 2*100, decayed to 237.5...
			{400, 1000, 750}, // ...but the next value is the mean 300 of all three
		}},
		{"app-limited samples leave the limit, feed the long RTT", plain(100), []sample{
			{100, 49, 100}, // 49 < 100/2
			{200, 50, 75},  // 50 is not < 50; long (100+200)/2 = 150: gradient 0.75
		}},
		{"the gradient never goes below 0.5", plain(100), append(repeat(10, sample{100, 100, 100}),
			sample{10_000, 100, 50}, // long ~133: gradient 0.013, clamped
		)},
		{"the gradient never goes above 1", withTolerance, repeat(3, sample{100, 100, 100})},
		{"the tolerance forgives a slower short RTT", withTolerance, append(repeat(10, sample{100, 100, 100}),
			sample{120, 100, 100}, // 1.5*100.07/120 = 1.25: gradient 1
			sample{300, 100, 50},  // 1.5*100.4/300 = 0.502
		)},
		{"smoothing takes a share of the new limit", smooth, []sample{
			{100, 100, 101}, // 100*0.75 + 104*0.25
			{100, 100, 102},
		}},
		{"smoothing 0 never moves", frozen, repeat(3, sample{100, 100, 100})},
		{"the limit stays in [MinLimit, MaxLimit]", clamped, []sample{
			{100, 30, 34},
			{100, 30, 35}, // 38, clamped
			{100, 30, 35},
			{100, 30, 35}, {100, 30, 35}, {100, 30, 35}, {100, 30, 35},
			{100, 30, 35}, {100, 30, 35}, {100, 30, 35},
			{100_000, 30, 21}, // gradient 0.5: 17.5 + 4 = 21.5
			{100_000, 30, 20}, // 10.75 + 4, clamped
		}},
		{"InitialLimit outside the range stands until a sample moves it", outside, []sample{
			{100, 0, 5000},    // app-limited
			{100, 5000, 1000}, // clamped to MaxLimit
		}},
		{"a 0 ns sample is ignored", plain(100), []sample{
			{0, 100, 100},
			{100, 100, 100},
			{200, 100, 75}, // long (100+200)/2: the 0 was not averaged in
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := gradient2.New(tt.cfg)
			for i, s := range tt.samples {
				if got := l.Update(s.rttNs, s.inflight); got != s.want {
					t.Fatalf("sample %d: Update(%d, %d) = %d; want %d", i+1, s.rttNs, s.inflight, got, s.want)
				}
				if got := l.Limit(); got != s.want {
					t.Fatalf("sample %d: Limit() = %d after Update returned %d", i+1, got, s.want)
				}
			}
		})
	}
}

func TestQueueSizeGetsTheLimitBeforeTheSample(t *testing.T) {
	var args []int
	cfg := plain(105.5)
	cfg.QueueSize = func(limit int) float64 {
		args = append(args, limit)
		return float64(limit) / 10
	}
	l := gradient2.New(cfg)
	if got := l.Update(100, 100); got != 116 { // 105.5 + 105/10
		t.Errorf("Update(100, 100) = %d; want 116", got)
	}
	l.Update(100, 0) // app-limited: the queue is still asked
	if want := []int{105, 116}; !slices.Equal(args, want) {
		t.Errorf("QueueSize called with %v; want %v", args, want)
	}
}

func TestDefaultConfig(t *testing.T) {
	c := gradient2.DefaultConfig()
	if c.InitialLimit != 20 || c.MinLimit != 20 || c.MaxLimit != 200 || c.Smoothing != 0.2 ||
		c.RTTTolerance != 1.5 || c.LongWindow != 600 || c.QueueSize != nil {
		t.Errorf("DefaultConfig() = %+v; want 20, 20, 200, 0.2, 1.5, 600, nil", c)
	}
	if got := gradient2.New(c).Limit(); got != 20 {
		t.Errorf("New(DefaultConfig()).Limit() = %d; want 20", got)
	}
}

func TestNewPanicsNamingTheField(t *testing.T) {
	bad := func(f func(*gradient2.Config)) gradient2.Config {
		c := gradient2.DefaultConfig()
		f(&c)
		return c
	}
	tests := []struct {
		field string
		cfg   gradient2.Config
	}{
		{"MinLimit", bad(func(c *gradient2.Config) { c.MinLimit = 300 })},
		{"Smoothing", bad(func(c *gradient2.Config) { c.Smoothing = 1.5 })},
		{"Smoothing", bad(func(c *gradient2.Config) { c.Smoothing = math.NaN() })},
		{"RTTTolerance", bad(func(c *gradient2.Config) { c.RTTTolerance = 0.9 })},
		{"LongWindow", bad(func(c *gradient2.Config) { c.LongWindow = 0 })},
	}
	for _, tt := range tests {
		func() {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, tt.field) {
					t.Errorf("New with a bad %s panicked with %v; want a panic naming it", tt.field, r)
				}
			}()
			gradient2.New(tt.cfg)
		}()
	}
}
