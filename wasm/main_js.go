package main

import (
	"math"

	"syscall/js"

	"ratelab/lab/limiters"
	"ratelab/lab/sim"
	"ratelab/lab/traffic"
)

func main() {
	js.Global().Set("ratelab", api())
	select {} // keep the functions alive
}

// api returns the ratelab object.
func api() js.Value {
	lanes := make([]any, sim.NumLanes)
	for i := range lanes {
		lanes[i] = map[string]any{"id": sim.Lane(i).String(), "name": sim.Lane(i).Name()}
	}
	traffics := make([]any, len(traffic.Names))
	for i, n := range traffic.Names {
		traffics[i] = n
	}
	return js.ValueOf(map[string]any{
		"lanes":    lanes,
		"traffics": traffics,
		"layout": map[string]any{
			"now": sim.StateNow, "messages": sim.StateMessages,
			"lostWhole": sim.StateLostWhole, "lostUnits": sim.StateLostUnits,
			"bound": sim.StateBound, "stopped": sim.StateStopped, "buckets": sim.StateBuckets,
			"header": sim.StateHeader, "laneFields": sim.LaneFields,
			"accepted": sim.LaneAccepted, "refused": sim.LaneRefused,
			"max": sim.LaneMax, "maxAt": sim.LaneMaxAt, "tokens": sim.LaneTokens, "count": sim.LaneCount,
		},
		"maxBatch": sim.MaxBatch,
		"newSim":   js.FuncOf(newSim),

		"governor":        governorAPI(),
		"newGovernorSim":  js.FuncOf(newGovernorSim),
		"gradient2":       gradient2API(),
		"newGradient2Sim": js.FuncOf(newGradient2Sim),
		"fairqueue":       fairqueueAPI(),
		"hierarchy":       hierarchyAPI(),
		"newHierarchySim": js.FuncOf(newHierarchySim),
		"gateway":         gatewayAPI(),
		"newGatewaySim":   js.FuncOf(newGatewaySim),
		"replay":          replayAPI(),
		"throttle":        throttleAPI(),
		"newThrottleSim":  js.FuncOf(newThrottleSim),
		"breaker":         breakerAPI(), "newBreakerSim": js.FuncOf(newBreakerSim),
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

func errorValue(msg string) js.Value {
	return js.ValueOf(map[string]any{"error": msg})
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
	var impl limiters.Impl
	switch name := c.str("impl", "reference"); name {
	case "reference":
		impl = limiters.Reference
	case "yours":
		impl = yours()
	default:
		return sim.Config{}, limiters.Impl{}, "impl must be reference or yours, not " + name
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

// config reads typed fields of a JavaScript config object, with defaults.
type config struct{ v js.Value }

func (c config) num(name string, def float64) float64 {
	f := c.v.Get(name)
	if f.Type() != js.TypeNumber || math.IsNaN(f.Float()) {
		return def
	}
	return f.Float()
}

func (c config) str(name, def string) string {
	if s := c.v.Get(name); s.Type() == js.TypeString {
		return s.String()
	}
	return def
}

func (c config) bool(name string) bool {
	b := c.v.Get(name)
	return b.Type() == js.TypeBoolean && b.Bool()
}

// untilNs reads a virtual time in nanoseconds: 0 for NaN or less, the
// largest time from 2^63 on.
func untilNs(v js.Value) uint64 {
	until := v.Float()
	switch {
	case math.IsNaN(until) || until <= 0:
		return 0
	case until >= 1<<63:
		return math.MaxUint64
	}
	return uint64(until)
}

// jsObject is a JavaScript object whose methods are Go functions, all
// released by its free method.
type jsObject struct {
	obj   js.Value
	funcs []js.Func
}

func newObject() *jsObject {
	o := &jsObject{obj: js.Global().Get("Object").New()}
	o.method("free", func([]js.Value) any {
		for _, f := range o.funcs {
			f.Release()
		}
		return nil
	})
	return o
}

func (o *jsObject) method(name string, f func(args []js.Value) any) {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args) })
	o.funcs = append(o.funcs, fn)
	o.obj.Set(name, fn)
}
