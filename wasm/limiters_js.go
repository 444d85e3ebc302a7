//go:build !oneweek || week1 || week2

package main

import (
	"math"

	"syscall/js"

	"ratelab/lab/limiters"
	"ratelab/lab/sim"
	"ratelab/lab/traffic"
)

// Weeks 1 and 2: the limiters side by side (lab/sim).
func init() {
	parts = append(parts, func(o map[string]any) {
		lanes := make([]any, sim.NumLanes)
		for i := range lanes {
			lanes[i] = map[string]any{"id": sim.Lane(i).String(), "name": sim.Lane(i).Name()}
		}
		traffics := make([]any, len(traffic.Names))
		for i, n := range traffic.Names {
			traffics[i] = n
		}
		o["lanes"] = lanes
		o["traffics"] = traffics
		o["layout"] = map[string]any{
			"now": sim.StateNow, "messages": sim.StateMessages,
			"lostWhole": sim.StateLostWhole, "lostUnits": sim.StateLostUnits,
			"bound": sim.StateBound, "stopped": sim.StateStopped, "buckets": sim.StateBuckets,
			"header": sim.StateHeader, "laneFields": sim.LaneFields,
			"accepted": sim.LaneAccepted, "refused": sim.LaneRefused,
			"max": sim.LaneMax, "maxAt": sim.LaneMaxAt, "tokens": sim.LaneTokens, "count": sim.LaneCount,
		}
		o["maxBatch"] = sim.MaxBatch
		o["newSim"] = js.FuncOf(newSim)
	})
}

// newSim is ratelab.newSim(config).
func newSim(_ js.Value, args []js.Value) any {
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return errorValue("newSim needs a config object")
	}
	cfg, impl, err := parseConfig(args[0])
	if err != "" {
		return errorValue(err)
	}
	s, e := sim.New(cfg, impl)
	if e != nil {
		return errorValue(e.Error())
	}
	return wrap(s)
}

// parseConfig reads a config object. Missing numbers take the lab's
// defaults: 100 per 1,000 ms in 10 buckets, burst = limit.
func parseConfig(v js.Value) (sim.Config, limiters.Impl, string) {
	c := config{v}
	limit, windowMs := c.num("limit", 100), c.num("windowMs", 1000)
	buckets, burst, seed := c.num("buckets", 10), c.num("burst", 0), c.num("seed", 1)
	if limit < 0 || limit > math.MaxUint32 || buckets < 0 || buckets > math.MaxInt32 ||
		burst < 0 || burst > math.MaxUint32 || windowMs < 0 || windowMs > 1e9 || seed < 0 {
		return sim.Config{}, limiters.Impl{}, "limit, windowMs, buckets, burst and seed must be numbers in range"
	}
	refill, err := sim.ParseRefill(c.str("refill", "exact"))
	if err != nil {
		return sim.Config{}, limiters.Impl{}, err.Error()
	}
	impl, msg := pickImpl(c, limiters.Reference, yours)
	if msg != "" {
		return sim.Config{}, limiters.Impl{}, msg
	}
	cfg := sim.Config{
		Limit:    uint32(limit),
		WindowNs: uint64(math.Round(windowMs * 1e6)),
		Buckets:  int(buckets),
		Burst:    uint64(burst),
		Refill:   refill,
		Traffic:  c.str("traffic", traffic.SteadyName),
		Seed:     uint64(seed),
	}
	return cfg, impl, ""
}

// wrap returns the JavaScript face of s.
func wrap(s *sim.Sim) js.Value {
	var (
		buf []byte
		st  sim.State
	)
	o := newObject()
	o.method("step", func(args []js.Value) any {
		if len(args) < 3 {
			return 0
		}
		b := s.Step(args[0].Int(), untilNs(args[1]))
		buf = b.Encode(buf[:0])
		js.CopyBytesToJS(args[2], buf)
		return b.Len()
	})
	o.method("state", func(args []js.Value) any {
		if len(args) < 1 {
			return 0
		}
		s.State(&st)
		buf = st.Encode(buf[:0])
		return js.CopyBytesToJS(args[0], buf)
	})
	o.method("info", func([]js.Value) any {
		s.State(&st)
		cfg := s.Config()
		lanes := make([]any, sim.NumLanes)
		for i, l := range st.Lanes {
			lanes[i] = map[string]any{
				"id": sim.Lane(i).String(), "name": sim.Lane(i).Name(),
				"stopped": l.Stopped, "status": l.Status,
			}
		}
		return map[string]any{
			"impl":     s.Impl(),
			"limit":    int(cfg.Limit),
			"windowNs": float64(cfg.WindowNs),
			"buckets":  cfg.Buckets,
			"burst":    float64(cfg.Capacity()),
			"rate":     float64(cfg.Rate()),
			"bound":    float64(cfg.Bound()),
			"refill":   cfg.Refill.String(),
			"traffic":  cfg.Traffic,
			"lanes":    lanes,
		}
	})
	return o.obj
}
