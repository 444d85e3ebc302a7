//go:build !oneweek || week4

package main

import (
	"syscall/js"

	"ratelab/lab/adaptive"
	"ratelab/lab/governor"
	"ratelab/lab/gradient2"
	"ratelab/lab/target"
)

// Week 4: the governor and Gradient2.
func init() {
	parts = append(parts, func(o map[string]any) {
		o["governor"] = governorAPI()
		o["newGovernorSim"] = js.FuncOf(newGovernorSim)
		o["gradient2"] = gradient2API()
		o["newGradient2Sim"] = js.FuncOf(newGradient2Sim)
	})
}

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
		"windowNs": governor.WindowNs,
		"maxSteps": maxStepWindows,
		"maxBytes": governor.MaxStepBytes(maxStepWindows),
		"layout": map[string]any{
			"count": governor.StepCount, "stopped": governor.StepStopped,
			"offer": governor.StepOffer, "lastBad": governor.StepLastBad,
			"capacity": governor.StepCapacity, "windows": governor.StepWindows,
			"header": governor.StepHeader, "fields": governor.WindowFields,
			"index": governor.WinIndex, "windowOffer": governor.WinOffer,
			"slots": governor.WinSlots, "windowCapacity": governor.WinCapacity,
			"attempts": governor.WinAttempts, "failures": governor.WinAttemptFailures,
			"retries": governor.WinRetries, "ok": governor.WinRequestsOK,
			"failed": governor.WinRequestsFailed, "action": governor.WinAction,
			"next": governor.WinNextOffer, "windowLastBad": governor.WinLastBad,
			"reasonBytes": governor.WinReasonBytes,
		},
	}
}

// gradient2API is ratelab.gradient2: what JavaScript needs to read a
// Gradient2 step.
func gradient2API() map[string]any {
	return map[string]any{
		"binNs":    gradient2.BinNs,
		"maxBins":  gradient2.MaxBins,
		"maxBytes": gradient2.MaxStepBytes(gradient2.MaxBins),
		"layout": map[string]any{
			"count": gradient2.StepCount, "stopped": gradient2.StepStopped, "now": gradient2.StepNow,
			"limit": gradient2.StepLimit, "short": gradient2.StepShortRTT, "long": gradient2.StepLongRTT,
			"inflight": gradient2.StepInflight, "header": gradient2.StepHeader, "fields": gradient2.BinFields,
			"start": gradient2.BinStart, "load": gradient2.BinLoad, "binLimit": gradient2.BinLimit,
			"binShort": gradient2.BinShortRTT, "binLong": gradient2.BinLongRTT, "binInflight": gradient2.BinInflight,
			"arrived": gradient2.BinArrived, "admitted": gradient2.BinAdmitted, "rejected": gradient2.BinRejected,
			"samples": gradient2.BinSamples, "appLimited": gradient2.BinAppLimited,
		},
	}
}

// impl returns the adaptive.Impl the config names: "reference" or "yours".
func (c config) impl() (adaptive.Impl, string) {
	return pickImpl(c, adaptive.Reference, yoursAdaptive)
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
	cfg := governor.DefaultConfig(c.str("target", target.FragileName))
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
	r, err := governor.New(cfg, impl)
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
func wrapGovernor(r *governor.Run) js.Value {
	var buf []byte
	o := newObject()
	o.method("step", func(args []js.Value) any {
		if len(args) < 2 {
			return 0
		}
		n, room := min(max(args[0].Int(), 0), maxStepWindows), args[1].Length()
		for n > 0 && governor.MaxStepBytes(n) > room {
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
			"windowNs": governor.WindowNs, "rounds": governor.RoundsPerWindow,
			"offer": r.Offer(), "lastBad": r.LastBad(), "capacity": r.Capacity(), "windows": r.Windows(),
		}
	})
	return o.obj
}

// newGradient2Sim is ratelab.newGradient2Sim(config).
func newGradient2Sim(_ js.Value, args []js.Value) any {
	_, impl, seed, msg := adaptiveConfig("newGradient2Sim", args)
	if msg != "" {
		return errorValue(msg)
	}
	cfg := gradient2.DefaultConfig()
	cfg.Seed = seed
	r, err := gradient2.New(cfg, impl)
	if err != nil {
		return errorValue(err.Error())
	}
	return wrapGradient2(r)
}

// wrapGradient2 returns the JavaScript face of r:
//
//	step(untilNs, maxBins, bytes)  run whole bins up to virtual time untilNs,
//	                               at most maxBins; write r.EncodeStep into the
//	                               Uint8Array bytes and return the number of bins
//	info()                         the settings and the status, as an object
//	free()                         release the functions
func wrapGradient2(r *gradient2.Run) js.Value {
	var buf []byte
	o := newObject()
	o.method("step", func(args []js.Value) any {
		if len(args) < 3 {
			return 0
		}
		n := min(max(args[1].Int(), 0), gradient2.MaxBins)
		if room := (args[2].Length()/8 - gradient2.StepHeader) / gradient2.BinFields; n > room {
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
			"binNs": gradient2.BinNs, "steps": steps, "seed": float64(cfg.Seed),
			"limit": map[string]any{
				"initial": l.InitialLimit, "min": l.MinLimit, "max": l.MaxLimit,
				"smoothing": l.Smoothing, "tolerance": l.RTTTolerance, "longWindow": l.LongWindow,
			},
		}
	})
	return o.obj
}
