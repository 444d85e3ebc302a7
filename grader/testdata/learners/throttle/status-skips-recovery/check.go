package throttle

import "fmt"

type rule struct {
	bad   bool
	field string
	want  string
}

func (c Config) problems() []rule {
	k := c.Congestion
	return []rule{
		{c.Rate.MaxCalls == 0, "Rate.MaxCalls", "at least 1"},
		{c.Rate.WindowNs == 0, "Rate.WindowNs", "at least 1"},
		{k.WindowNs == 0, "Congestion.WindowNs", "at least 1"},
		{k.ReduceBps > 10000, "Congestion.ReduceBps", "at most 10000"},
		{k.MinMaxCalls == 0, "Congestion.MinMaxCalls", "at least 1"},
		{k.MaxMaxCalls < k.MinMaxCalls, "Congestion.MaxMaxCalls", "at least Congestion.MinMaxCalls"},
		{k.HighAbove < k.LowBelow, "Congestion.LowBelow", "at most Congestion.HighAbove"},
		{c.Breaker.AutoRecover && c.Breaker.TTLNs == 0, "Breaker.TTLNs", "at least 1 when Breaker.AutoRecover is set"},
	}
}

func (c Config) check() error {
	for _, r := range c.problems() {
		if r.bad {
			return fmt.Errorf("throttle: %s must be %s", r.field, r.want)
		}
	}
	return nil
}
