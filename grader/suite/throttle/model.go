package throttle

import gm "ratelab/grader/model"

// model is the contract's gate (grader/model's Throttle) in the suite's
// types. With a mistake's name, it is the contract with that one rule
// broken, as a learner breaks it (see mistakes.go): the model's switch
// for it sits beside the rule it breaks.
type model struct{ *gm.Throttle[State, Level] }

func newModel(cfg Config, now uint64) *model { return newMistaken(cfg, now, "") }

// newMistaken is New for the model that makes the named mistake ("" for
// none).
func newMistaken(cfg Config, now uint64, mistake string) *model {
	return &model{gm.NewThrottle[State, Level](cfg, now, mistake)}
}

// problem is one rule of New's validation a config breaks: the fields
// (dotted paths) of which its error must name one.
type problem struct{ fields []string }

// problems lists what is wrong with cfg, in the contract's order.
func problems(cfg Config) []problem {
	var out []problem
	add := func(fields ...string) { out = append(out, problem{fields}) }
	c := cfg.Congestion
	if cfg.Rate.MaxCalls == 0 {
		add("Rate.MaxCalls")
	}
	if cfg.Rate.WindowNs == 0 {
		add("Rate.WindowNs")
	}
	if c.WindowNs == 0 {
		add("Congestion.WindowNs")
	}
	if c.ReduceBps > 10_000 {
		add("Congestion.ReduceBps")
	}
	if c.MinMaxCalls > c.MaxMaxCalls || c.MinMaxCalls == 0 {
		add("Congestion.MinMaxCalls", "Congestion.MaxMaxCalls")
	}
	if c.LowBelow > c.HighAbove {
		add("Congestion.LowBelow", "Congestion.HighAbove")
	}
	if cfg.Breaker.AutoRecover && cfg.Breaker.TTLNs == 0 {
		add("Breaker.TTLNs", "Breaker.AutoRecover")
	}
	return out
}
