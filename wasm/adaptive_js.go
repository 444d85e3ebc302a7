package main

import (
	"math"

	"syscall/js"

	"ratelab/lab/adaptive"
	"ratelab/lab/backpressure"
	"ratelab/lab/gradient"
	"ratelab/lab/target"
)

// maxStepWindows is the most windows one governor step runs.
const maxStepWindows = 64

// governorAPI is ratelab.governor: what JavaScript needs to read a
// governor step.
func governorAPI() map[string]any {
	targets := make([]any, len(target.Names))
	for i, name := range target.Names {
		p, _ := target.Named(name)
		targets[i] = map[string]any{"id": name, "title": p.Title}
	}
	actions := make([]any, adaptive.Probe+1)
	for i := range actions {
		actions[i] = adaptive.Action(i).String()
	}
	return map[string]any{
		"targets":  targets,
		"actions":  actions,
		"windowNs": backpressure.WindowNs,
		"maxSteps": maxStepWindows,
		"maxBytes": backpressure.MaxStepBytes(maxStepWindows),
		"layout": map[string]any{
			"count": backpressure.StepCount, "stopped": backpressure.StepStopped,
			"offer": backpressure.StepOffer, "lastBad": backpressure.StepLastBad,
			"capacity": backpressure.StepCapacity, "windows": backpressure.StepWindows,
			"header": backpressure.StepHeader, "fields": backpressure.WindowFields,
			"index": backpressure.WinIndex, "windowOffer": backpressure.WinOffer,
			"slots": backpressure.WinSlots, "windowCapacity": backpressure.WinCapacity,
			"attempts": backpressure.WinAttempts, "failures": backpressure.WinAttemptFailures,
			"retries": backpressure.WinRetries, "ok": backpressure.WinRequestsOK,
			"failed": backpressure.WinRequestsFailed, "action": backpressure.WinAction,
			"next": backpressure.WinNextOffer, "windowLastBad": backpressure.WinLastBad,
			"reasonBytes": backpressure.WinReasonBytes,
		},
	}
}

// gradientAPI is ratelab.gradient: what JavaScript needs to read a
// Gradient2 step.
func gradientAPI() map[string]any {
	return map[string]any{
		"binNs":    gradient.BinNs,
		"maxBins":  gradient.MaxBins,
		"maxBytes": gradient.MaxStepBytes(gradient.MaxBins),
		"layout": map[string]any{
			"count": gradient.StepCount, "stopped": gradient.StepStopped, "now": gradient.StepNow,
			"limit": gradient.StepLimit, "short": gradient.StepShortRTT, "long": gradient.StepLongRTT,
			"inflight": gradient.StepInflight, "header": gradient.StepHeader, "fields": gradient.BinFields,
			"start": gradient.BinStart, "load": gradient.BinLoad, "binLimit": gradient.BinLimit,
			"binShort": gradient.BinShortRTT, "binLong": gradient.BinLongRTT, "binInflight": gradient.BinInflight,
			"arrived": gradient.BinArrived, "admitted": gradient.BinAdmitted, "rejected": gradient.BinRejected,
			"samples": gradient.BinSamples, "appLimited": gradient.BinAppLimited,
		},
	}
}

// impl returns the adaptive.Impl the config names: "reference" or "yours".
func (c config) impl() (adaptive.Impl, string) {
	switch name := c.str("impl", "reference"); name {
	case "reference":
		return adaptive.Reference, ""
	case "yours":
		return yoursAdaptive(), ""
	default:
		return adaptive.Impl{}, "impl must be reference or yours, not " + name
	}
}

// seed reads the seed: a whole number from 0 to 2^53.
func (c config) seed() (uint64, string) {
	s := c.num("seed", 1)
	if s < 0 || s > 1<<53 || s != math.Trunc(s) {
		return 0, "seed must be a whole number from 0 to 2^53"
	}
	return uint64(s), ""
}

// adaptiveConfig reads what every adaptive simulation's config has: the
// implementation and the seed. msg, if not empty, says what is wrong.
func adaptiveConfig(fn string, args []js.Value) (c config, impl adaptive.Impl, seed uint64, msg string) {
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return c, impl, 0, fn + " needs a config object"
	}
	c = config{args[0]}
	if impl, msg = c.impl(); msg != "" {
		return c, impl, 0, msg
	}
	seed, msg = c.seed()
	return c, impl, seed, msg
}

// newGovernorSim is ratelab.newGovernorSim(config).
func newGovernorSim(_ js.Value, args []js.Value) any {
	c, impl, seed, msg := adaptiveConfig("newGovernorSim", args)
	if msg != "" {
		return errorValue(msg)
	}
	cfg := backpressure.DefaultConfig(c.str("target", target.FragileName))
	cfg.Floor = c.num("floor", cfg.Floor)
	cfg.Ceiling = c.num("ceiling", cfg.Ceiling)
	cfg.Start = c.num("start", cfg.Start)
	cfg.Low = c.num("low", cfg.Low)
	cfg.High = c.num("high", cfg.High)
	tries := c.num("tries", float64(cfg.Tries))
	if tries < 0 || tries > 1e6 {
		tries = 0 // Validate says why
	}
	cfg.Tries = int(tries)
	cfg.Fixed = c.bool("fixed")
	cfg.Seed = seed
	r, err := backpressure.New(cfg, impl)
	if err != nil {
		return errorValue(err.Error())
	}
	return wrapGovernor(r)
}

// wrapGovernor returns the JavaScript face of r:
//
//	step(maxWindows, bytes)  run up to maxWindows windows (at most 64); write
//	                         r.EncodeStep into the Uint8Array bytes and return
//	                         the number of windows
//	info()                   the settings and the status, as an object
//	free()                   release the functions
func wrapGovernor(r *backpressure.Run) js.Value {
	var buf []byte
	o := newObject()
	o.method("step", func(args []js.Value) any {
		if len(args) < 2 {
			return 0
		}
		n, room := min(max(args[0].Int(), 0), maxStepWindows), args[1].Length()
		for n > 0 && backpressure.MaxStepBytes(n) > room {
			n--
		}
		ws := r.Step(n)
		buf = r.EncodeStep(buf[:0], ws)
		js.CopyBytesToJS(args[1], buf)
		return len(ws)
	})
	o.method("info", func([]js.Value) any {
		cfg, p := r.Config(), r.Profile()
		changes := make([]any, len(p.Changes))
		for i, ch := range p.Changes {
			changes[i] = map[string]any{"atNs": float64(ch.AtNs), "rampNs": float64(ch.RampNs), "capacity": ch.Capacity}
		}
		return map[string]any{
			"impl": r.Impl(), "implStatus": r.ImplStatus(), "stopped": r.Stopped(), "status": r.Status(),
			"target": p.Name, "targetTitle": p.Title, "startCapacity": p.Capacity, "changes": changes,
			"collapse": p.Collapse, "noise": p.Noise,
			"floor": cfg.Floor, "ceiling": cfg.Ceiling, "start": cfg.Start, "low": cfg.Low, "high": cfg.High,
			"tries": cfg.Tries, "fixed": cfg.Fixed, "seed": float64(cfg.Seed),
			"windowNs": backpressure.WindowNs, "rounds": backpressure.RoundsPerWindow,
			"offer": r.Offer(), "lastBad": r.LastBad(), "capacity": r.Capacity(), "windows": r.Windows(),
		}
	})
	return o.obj
}

// newGradientSim is ratelab.newGradientSim(config).
func newGradientSim(_ js.Value, args []js.Value) any {
	_, impl, seed, msg := adaptiveConfig("newGradientSim", args)
	if msg != "" {
		return errorValue(msg)
	}
	cfg := gradient.DefaultConfig()
	cfg.Seed = seed
	r, err := gradient.New(cfg, impl)
	if err != nil {
		return errorValue(err.Error())
	}
	return wrapGradient(r)
}

// wrapGradient returns the JavaScript face of r:
//
//	step(untilNs, maxBins, bytes)  run whole bins up to virtual time untilNs,
//	                               at most maxBins; write r.EncodeStep into the
//	                               Uint8Array bytes and return the number of bins
//	info()                         the settings and the status, as an object
//	free()                         release the functions
func wrapGradient(r *gradient.Run) js.Value {
	var buf []byte
	o := newObject()
	o.method("step", func(args []js.Value) any {
		if len(args) < 3 {
			return 0
		}
		n := min(max(args[1].Int(), 0), gradient.MaxBins)
		if room := (args[2].Length()/8 - gradient.StepHeader) / gradient.BinFields; n > room {
			n = max(room, 0)
		}
		bins := r.Step(untilNs(args[0]), n)
		buf = r.EncodeStep(buf[:0], bins)
		js.CopyBytesToJS(args[2], buf)
		return len(bins)
	})
	o.method("info", func([]js.Value) any {
		cfg := r.Config()
		steps := make([]any, len(cfg.Steps))
		for i, s := range cfg.Steps {
			steps[i] = map[string]any{"durationNs": float64(s.DurationNs), "load": s.Load}
		}
		l := cfg.Limit
		return map[string]any{
			"impl": r.Impl(), "implStatus": r.ImplStatus(), "stopped": r.Stopped(), "status": r.Status(),
			"workers": cfg.Workers, "serviceNs": float64(cfg.ServiceNs), "throughput": r.Throughput(),
			"binNs": gradient.BinNs, "steps": steps, "seed": float64(cfg.Seed),
			"limit": map[string]any{
				"initial": l.InitialLimit, "min": l.MinLimit, "max": l.MaxLimit,
				"smoothing": l.Smoothing, "tolerance": l.RTTTolerance, "longWindow": l.LongWindow,
			},
		}
	})
	return o.obj
}
