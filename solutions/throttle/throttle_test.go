package throttle_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"ratelab/solutions/throttle"
)

// config is a gate's config for the tests: 2 writes per 100 ns, a
// breaker recovering after 1,000 ns with 3 degraded writes, congestion
// over 50 ns (Low below 2, High above 4) moving the limit by 50% down and
// 100% up within [1, 8].
func config() throttle.Config {
	return throttle.Config{
		Breaker: throttle.BreakerConfig{TTLNs: 1000, DegradedWriteLimit: 3, AutoRecover: true},
		Rate:    throttle.RateLimit{MaxCalls: 2, WindowNs: 100},
		Congestion: throttle.CongestionConfig{
			WindowNs: 50, LowBelow: 2, HighAbove: 4,
			ReduceBps: 5000, IncreaseBps: 10_000, MinMaxCalls: 1, MaxMaxCalls: 8,
		},
	}
}

// step is one call on a gate; do makes it and returns what it returned,
// written as the test compares it.
type step struct {
	name string
	do   func(g *throttle.Gate) string
	want string
}

func write(addr, now uint64, want error) step {
	w := "nil"
	if want != nil {
		w = want.Error()
	}
	return step{"Write", func(g *throttle.Gate) string {
		if err := g.Write(addr, now); err != nil {
			return err.Error()
		}
		return "nil"
	}, w}
}

func setState(s throttle.State, now uint64) step {
	return step{"SetState", func(g *throttle.Gate) string { g.SetState(s, now); return "" }, ""}
}

func whitelist(addr uint64, on bool) step {
	return step{"SetWhitelisted", func(g *throttle.Gate) string { g.SetWhitelisted(addr, on); return "" }, ""}
}

func override(addr uint64, max uint32, window uint64) step {
	return step{"SetIssuerLimit", func(g *throttle.Gate) string {
		if err := g.SetIssuerLimit(addr, throttle.RateLimit{MaxCalls: max, WindowNs: window}); err != nil {
			return err.Error()
		}
		return "nil"
	}, "nil"}
}

func adjust(now uint64, want throttle.Level) step {
	return step{"AdjustCongestion", func(g *throttle.Gate) string {
		return string('0' + rune(g.AdjustCongestion(now)))
	}, string('0' + rune(want))}
}

func maxCalls(now uint64, want uint32) step {
	return step{"Status.MaxCalls", func(g *throttle.Gate) string {
		return string(rune(g.Status(now).MaxCalls))
	}, string(rune(want))}
}

func TestGate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"the limit and the window's edges", []step{
			write(1, 0, nil), write(1, 99, nil), write(1, 99, throttle.ErrRateLimited),
			write(2, 99, nil), write(1, 100, nil), write(1, 199, nil), write(1, 199, throttle.ErrRateLimited),
		}},
		{"refused writes are not counted", []step{
			write(1, 0, nil), write(1, 0, nil), write(1, 50, throttle.ErrRateLimited), write(1, 100, nil), write(1, 100, nil),
		}},
		{"pause refuses the whitelisted too, and recovers at RecoverAtNs itself", []step{
			whitelist(1, true), setState(throttle.Paused, 10), write(1, 1009, throttle.ErrPaused), write(1, 1010, nil),
		}},
		{"degraded: a cap per period, whitelisted included; a new period starts at 0", []step{
			whitelist(1, true), setState(throttle.Degraded, 0), write(1, 0, nil), write(1, 0, nil), write(1, 0, nil),
			write(1, 0, throttle.ErrDegradedLimit), setState(throttle.Degraded, 5), write(1, 5, nil),
		}},
		{"the first refusal's error", []step{
			write(1, 0, nil), write(1, 0, nil), setState(throttle.Degraded, 0), write(1, 0, throttle.ErrRateLimited),
			write(2, 0, nil), write(2, 0, nil), write(3, 0, nil), write(1, 0, throttle.ErrDegradedLimit),
			setState(throttle.Paused, 0), write(1, 0, throttle.ErrPaused),
		}},
		{"whitelisted writes count once it leaves the list", []step{
			whitelist(1, true), write(1, 0, nil), write(1, 0, nil), write(1, 0, nil), whitelist(1, false), write(1, 99, throttle.ErrRateLimited),
			write(1, 100, nil),
		}},
		{"an override wins, both ways, and starts the window afresh", []step{
			write(1, 0, nil), write(1, 0, nil), override(1, 5, 10), write(1, 1, nil), write(1, 1, nil), write(1, 1, nil),
			write(1, 1, nil), write(1, 1, nil), write(1, 1, throttle.ErrRateLimited), write(1, 11, nil),
		}},
		{"congestion moves the global limit on a level change only, and keeps history", []step{
			write(1, 0, nil), write(1, 0, nil), write(2, 0, nil), write(2, 0, nil), write(3, 0, nil),
			adjust(0, throttle.High), maxCalls(0, 1), adjust(0, throttle.High), maxCalls(0, 1),
			write(4, 1, nil), write(4, 1, throttle.ErrRateLimited),
			adjust(100, throttle.Low), maxCalls(100, 2),
			write(4, 100, nil), write(4, 100, throttle.ErrRateLimited), // the write at 1 still counts
			adjust(101, throttle.Low), maxCalls(101, 2), write(4, 101, nil), write(4, 101, throttle.ErrRateLimited),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { run(t, config(), tc.steps) })
	}
}

// run makes the steps on a gate made with cfg at 0.
func run(t *testing.T, cfg throttle.Config, steps []step) {
	t.Helper()
	g, err := throttle.New(cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range steps {
		if got := s.do(g); got != s.want {
			t.Fatalf("step %d: %s = %q, want %q", i, s.name, got, s.want)
		}
	}
}

// TestLimitRaisedAboveTheConfigured checks that an address's writes are
// all there for a global limit congestion raised above Rate.MaxCalls:
// the gate cannot keep only Rate.MaxCalls of them.
func TestLimitRaisedAboveTheConfigured(t *testing.T) {
	cfg := throttle.Config{
		Rate: throttle.RateLimit{MaxCalls: 2, WindowNs: 1000},
		Congestion: throttle.CongestionConfig{
			WindowNs: 10, LowBelow: 1, HighAbove: 100, IncreaseBps: 30_000, MinMaxCalls: 1, MaxMaxCalls: 8,
		},
	}
	steps := []step{whitelist(1, true)}
	for range 10 {
		steps = append(steps, write(1, 0, nil))
	}
	steps = append(steps, whitelist(1, false), write(1, 1, throttle.ErrRateLimited),
		adjust(20, throttle.Low), maxCalls(20, 8),
		write(1, 20, throttle.ErrRateLimited)) // 10 writes in the window, the limit 8
	for at := range uint64(8) {
		steps = append(steps, write(2, 20+at, nil))
	}
	steps = append(steps, write(2, 28, throttle.ErrRateLimited),
		write(1, 1000, nil), // the 10 writes at 0 have left the window
		write(2, 1019, throttle.ErrRateLimited), write(2, 1020, nil))
	run(t, cfg, steps)
}

// TestManyAddresses checks that each of many addresses has its own
// window, whatever their values (neighbours, multiples of large powers of
// two, values near the top).
func TestManyAddresses(t *testing.T) {
	g, err := throttle.New(config(), 0) // 2 writes per 100 ns
	if err != nil {
		t.Fatal(err)
	}
	addrs := make([]uint64, 0, 30_000)
	for i := range uint64(10_000) {
		addrs = append(addrs, i, (i+1)<<40, math.MaxUint64-i)
	}
	for round, want := range []error{nil, nil, throttle.ErrRateLimited} {
		for _, a := range addrs {
			if err := g.Write(a, 0); err != want {
				t.Fatalf("round %d: Write(%d, 0) = %v, want %v", round, a, err, want)
			}
		}
	}
	for _, a := range addrs {
		if err := g.Write(a, 100); err != nil {
			t.Fatalf("Write(%d, 100) = %v, want nil", a, err)
		}
	}
}

func TestErrorsAreDistinct(t *testing.T) {
	errs := []error{throttle.ErrPaused, throttle.ErrDegradedLimit, throttle.ErrRateLimited}
	for i, a := range errs {
		for j, b := range errs {
			if errors.Is(a, b) != (i == j) {
				t.Errorf("errors.Is(%v, %v) = %t", a, b, i != j)
			}
		}
	}
}

func TestNewNamesTheField(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(c *throttle.Config)
	}{
		{"Rate.MaxCalls", func(c *throttle.Config) { c.Rate.MaxCalls = 0 }},
		{"Rate.WindowNs", func(c *throttle.Config) { c.Rate.WindowNs = 0 }},
		{"Congestion.WindowNs", func(c *throttle.Config) { c.Congestion.WindowNs = 0 }},
		{"Congestion.ReduceBps", func(c *throttle.Config) { c.Congestion.ReduceBps = 10_001 }},
		{"Congestion.MinMaxCalls", func(c *throttle.Config) { c.Congestion.MinMaxCalls = 0 }},
		{"Congestion.MinMaxCalls", func(c *throttle.Config) { c.Congestion.MinMaxCalls = 9 }},
		{"Congestion.LowBelow", func(c *throttle.Config) { c.Congestion.LowBelow = 5 }},
		{"Breaker.TTLNs", func(c *throttle.Config) { c.Breaker.TTLNs = 0 }},
	} {
		t.Run(tc.field, func(t *testing.T) {
			c := config()
			tc.edit(&c)
			if _, err := throttle.New(c, 0); err == nil || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("New = %v, want an error naming %s", err, tc.field)
			}
		})
	}
	c := config()
	c.Breaker = throttle.BreakerConfig{}
	c.Rate.MaxCalls = 100 // outside [MinMaxCalls, MaxMaxCalls]: legal, and not clamped until it changes
	g, err := throttle.New(c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s := g.Status(0); s.MaxCalls != 100 || s.Level != throttle.NormalLoad || s.State != throttle.Normal {
		t.Errorf("Status = %+v, want MaxCalls 100 at NormalLoad, Normal", s)
	}
}

func TestHugeValues(t *testing.T) {
	c := config()
	c.Breaker.TTLNs = math.MaxUint64
	c.Rate = throttle.RateLimit{MaxCalls: math.MaxUint32, WindowNs: math.MaxUint64}
	c.Congestion = throttle.CongestionConfig{WindowNs: math.MaxUint64, LowBelow: 2, HighAbove: 2, IncreaseBps: math.MaxUint32, ReduceBps: 1, MinMaxCalls: 1, MaxMaxCalls: math.MaxUint32}
	g, _ := throttle.New(c, math.MaxUint64-5)
	g.SetState(throttle.Degraded, 0) // a step back: the clock stays at MaxUint64-5
	if s := g.Status(0); s.RecoverAtNs != math.MaxUint64 {
		t.Errorf("RecoverAtNs = %d, want MaxUint64 (saturated)", s.RecoverAtNs)
	}
	if got := g.AdjustCongestion(0); got != throttle.Low {
		t.Fatalf("AdjustCongestion = %v, want Low", got)
	}
	if s := g.Status(0); s.MaxCalls != math.MaxUint32 {
		t.Errorf("MaxCalls = %d, want MaxUint32 (clamped, not wrapped)", s.MaxCalls)
	}
	if err := g.Write(1, math.MaxUint64); err != nil {
		t.Errorf("Write at MaxUint64 (recovered) = %v, want nil", err)
	}
}
