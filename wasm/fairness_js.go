package main

import (
	"syscall/js"

	"ratelab/lab/fairness"
)

// fairnessAPI is ratelab.fairness: week 3's contention at the engine
// (package lab/fairness), one FIFO, round robin and DRR side by side.
//
//	ratelab.fairness.sessions      [{id, cost}]: "A" the burster, "B" the dear one, C to F
//	ratelab.fairness.lanes         [{id, name}]: fifo, rr, drr
//	ratelab.fairness.binNs         the length of a bin
//	ratelab.fairness.windowBins    bins in the window of the shares
//	ratelab.fairness.maxBins       the most bins one step returns
//	ratelab.fairness.maxBytes      bytes step may write
//	ratelab.fairness.layout        offsets of fairness's EncodeStep
//	ratelab.fairness.defaults      the lab's settings (fairness.DefaultConfig)
//	ratelab.fairness.newSim(config) a run, or {error}
//
// config is {impl, quantum, burstRate, heavyCost, seed}, every field
// optional. A run has
//
//	step(untilNs, maxBins, bytes)  run whole bins up to virtual time untilNs, at
//	                               most maxBins; write EncodeStep to the Uint8Array
//	                               bytes and return the number of bins
//	info()                         {impl, implStatus, stopped, status, bound, quantum,
//	                               burstRate, burstSize, periodNs, heavyCost, heavyLoad,
//	                               lightRate, capacity, seed}
//	free()
func fairnessAPI() map[string]any {
	d := fairness.DefaultConfig()
	sessions := make([]any, fairness.NumSessions)
	for s := range sessions {
		cost := 1
		if s == fairness.Heavy {
			cost = int(d.HeavyCost)
		}
		sessions[s] = map[string]any{"id": fairness.SessionName(s), "cost": cost}
	}
	lanes := make([]any, fairness.NumLanes)
	for l := range fairness.Lane(fairness.NumLanes) {
		lanes[l] = map[string]any{"id": l.String(), "name": l.Name()}
	}
	return map[string]any{
		"sessions":   sessions,
		"lanes":      lanes,
		"binNs":      fairness.BinNs,
		"windowBins": fairness.WindowBins,
		"maxBins":    fairness.MaxBins,
		"maxBytes":   fairness.MaxStepBytes(fairness.MaxBins),
		"defaults":   fairnessInfo(d),
		"layout": map[string]any{
			"count": fairness.StepCount, "now": fairness.StepNow, "bound": fairness.StepBound,
			"stopped": fairness.StepStopped, "header": fairness.StepHeader,
			"laneStopped": fairness.LaneStopped, "laneServed": fairness.LaneServed,
			"laneWaiting": fairness.LaneWaiting, "outOfOrder": fairness.LaneOutOfOrder,
			"worstGap": fairness.LaneWorstGap, "worstA": fairness.LaneWorstA, "worstB": fairness.LaneWorstB,
			"jointNs": fairness.LaneJointNs, "laneHead": fairness.LaneHead, "laneFields": fairness.LaneFields,
			"arrived": fairness.SesArrived, "served": fairness.SesServed, "waiting": fairness.SesWaiting,
			"p50": fairness.SesP50, "p99": fairness.SesP99, "share": fairness.SesShare, "peak": fairness.SesPeak,
			"sessionFields": fairness.SessionFields,
			"binStart":      fairness.BinStart, "binBusy": fairness.BinBusy, "binFields": fairness.BinFields,
		},
		"newSim": js.FuncOf(newFairnessSim),
	}
}

// fairnessInfo returns the settings of cfg as JavaScript sees them.
func fairnessInfo(cfg fairness.Config) map[string]any {
	return map[string]any{
		"quantum": float64(cfg.Quantum), "burstRate": cfg.BurstRate, "burstSize": cfg.BurstSize,
		"firstBurstNs": float64(cfg.FirstBurstNs), "periodNs": float64(cfg.PeriodNs),
		"heavyCost": float64(cfg.HeavyCost), "heavyLoad": cfg.HeavyLoad, "lightRate": cfg.LightRate,
		"capacity": float64(cfg.CapacityPerSec), "seed": float64(cfg.Seed),
	}
}

// newFairnessSim is ratelab.fairness.newSim(config).
func newFairnessSim(_ js.Value, args []js.Value) any {
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return errorValue("fairness.newSim needs a config object")
	}
	c := config{args[0]}
	var impl fairness.Impl
	switch name := c.str("impl", "reference"); name {
	case "reference":
		impl = fairness.Reference
	case "yours":
		impl = yoursFairness()
	default:
		return errorValue("impl must be reference or yours, not " + name)
	}
	seed, msg := c.seed()
	if msg != "" {
		return errorValue(msg)
	}
	cfg := fairness.DefaultConfig()
	cfg.Seed = seed
	cfg.BurstRate = c.num("burstRate", cfg.BurstRate)
	quantum, cost := c.num("quantum", float64(cfg.Quantum)), c.num("heavyCost", float64(cfg.HeavyCost))
	if quantum < 1 || quantum > 1<<32 || quantum != float64(uint64(quantum)) {
		return errorValue("quantum must be a whole number from 1 to 2^32")
	}
	if cost < 1 || cost > 1000 || cost != float64(uint64(cost)) {
		return errorValue("B's cost must be a whole number from 1 to 1000")
	}
	cfg.Quantum, cfg.HeavyCost = uint64(quantum), uint64(cost)
	r, err := fairness.New(cfg, impl)
	if err != nil {
		return errorValue(err.Error())
	}
	return wrapFairness(r)
}

// wrapFairness returns the JavaScript face of r.
func wrapFairness(r *fairness.Run) js.Value {
	var buf []byte
	o := newObject()
	o.method("step", func(args []js.Value) any {
		if len(args) < 3 {
			return 0
		}
		n := min(max(args[1].Int(), 0), fairness.MaxBins)
		for n > 0 && fairness.MaxStepBytes(n) > args[2].Length() {
			n--
		}
		if fairness.MaxStepBytes(0) > args[2].Length() {
			return 0
		}
		bins := r.Step(untilNs(args[0]), n)
		r.CheckLen()
		buf = r.EncodeStep(buf[:0], bins)
		js.CopyBytesToJS(args[2], buf)
		return len(bins)
	})
	o.method("info", func([]js.Value) any {
		info := fairnessInfo(r.Config())
		info["impl"], info["implStatus"] = r.Impl(), r.ImplStatus()
		info["stopped"], info["status"] = r.Stopped(), r.Status()
		info["bound"] = float64(r.Bound())
		return info
	})
	return o.obj
}
