package throttle

import (
	"fmt"
	"math"
	"strings"

	"ratelab/grader/check"
)

// validCase is a config that breaks no rule, on the edges of each.
func validCase() Config {
	return Config{
		Breaker: BreakerConfig{TTLNs: 1, AutoRecover: true},
		Rate:    RateLimit{MaxCalls: 5, WindowNs: 1},
		Congestion: CongestionConfig{
			WindowNs: 1, LowBelow: 3, HighAbove: 3, ReduceBps: 10_000, IncreaseBps: math.MaxUint32,
			MinMaxCalls: 5, MaxMaxCalls: 5,
		},
	}
}

// validationCases are configs with one problem each, and valid ones.
func validationCases() []Config {
	edit := func(f func(c *Config)) Config { c := validCase(); f(&c); return c }
	return []Config{
		validCase(),
		edit(func(c *Config) { c.Breaker = BreakerConfig{}; c.Rate.MaxCalls = 100 }), // outside [Min, Max]: legal
		edit(func(c *Config) { c.Rate.MaxCalls = 0 }),
		edit(func(c *Config) { c.Rate.WindowNs = 0 }),
		edit(func(c *Config) { c.Congestion.WindowNs = 0 }),
		edit(func(c *Config) { c.Congestion.ReduceBps = 10_001 }),
		edit(func(c *Config) { c.Congestion.MinMaxCalls = 0 }),
		edit(func(c *Config) { c.Congestion.MinMaxCalls = 6 }),
		edit(func(c *Config) { c.Congestion.LowBelow = 4 }),
		edit(func(c *Config) { c.Breaker.TTLNs = 0 }),
	}
}

// validation is the config-validation check: New on each case, then
// SetIssuerLimit with a 0 field on a gate New made. An error must hold
// the dotted path of a field of its problem; a valid config, no error.
// (That a failed SetIssuerLimit changes nothing, the properties see:
// their overrides have a 0 field now and then.)
func validation(impl Impl) check.Outcome {
	t := check.Trace{Setup: "// each New is a call on its own"}
	why := "New refuses exactly the configs the contract refuses, with an error whose text holds the field's dotted path (e.g. Congestion.WindowNs), and SetIssuerLimit names its 0 field (MaxCalls or WindowNs)."
	for _, cfg := range validationCases() {
		ps := problems(cfg)
		want := "a *Gate, nil"
		if len(ps) > 0 {
			want = "nil, an error naming " + strings.Join(ps[0].fields, " or ")
		}
		type made struct {
			g   Gate
			err error
		}
		mk, p := check.Call(func() made { g, err := impl.New(cfg, 0); return made{g, err} })
		got := "a *Gate, nil"
		switch {
		case mk.err != nil && len(ps) > 0 && names(mk.err.Error(), ps[0].fields):
			got = want
		case mk.err != nil:
			e, _ := check.ErrString(mk.err, false)
			got = "nil, " + e
		case mk.g == nil:
			got = "nil, nil"
		case len(ps) > 0:
			got = "a *Gate, nil"
		}
		if !t.Step(fmt.Sprintf("New(%s, nowNs=0)", configString(cfg)), got, want, p) {
			return check.Fail(t, why)
		}
	}
	g, _ := impl.New(validCase(), 0)
	for _, rl := range []RateLimit{{MaxCalls: 0, WindowNs: 100}, {MaxCalls: 100, WindowNs: 0}, {MaxCalls: 2, WindowNs: 100}} {
		field := ""
		switch {
		case rl.MaxCalls == 0:
			field = "MaxCalls"
		case rl.WindowNs == 0:
			field = "WindowNs"
		}
		err, p := check.Call(func() error { return g.SetIssuerLimit(7, rl) })
		want, got := "nil", "nil"
		if field != "" {
			want = "an error naming " + field
		}
		switch {
		case err != nil && field != "" && strings.Contains(err.Error(), field):
			got = want
		case err != nil:
			got, _ = check.ErrString(err, false)
		}
		o := op{Call: limitCall, Addr: 7, Limit: rl}
		if !t.Step(o.callString(0), got, want, p) {
			return check.Fail(t, why)
		}
	}
	return check.Pass()
}

// names reports whether msg holds one of the fields' dotted paths.
func names(msg string, fields []string) bool {
	for _, f := range fields {
		if strings.Contains(msg, f) {
			return true
		}
	}
	return false
}
