//go:build !oneweek || week3

package main

import (
	"syscall/js"

	"ratelab/lab/fairqueue"
)

// Week 3: deficit round robin.
func init() {
	parts = append(parts, func(o map[string]any) {
		o["fairqueue"] = fairqueueAPI()
	})
}

// fairqueueAPI is ratelab.fairqueue: week 3's contention at the engine
// (package lab/fairqueue), one FIFO, round robin and DRR side by side.
//
//	ratelab.fairqueue.sessions      [{id, cost}]: "A" the burster, "B" the dear one, C to F
//	ratelab.fairqueue.lanes         [{id, name}]: fifo, rr, drr
//	ratelab.fairqueue.binNs         the length of a bin
//	ratelab.fairqueue.windowBins    bins in the window of the shares
//	ratelab.fairqueue.maxBins       the most bins one step returns
//	ratelab.fairqueue.maxBytes      bytes step may write
//	ratelab.fairqueue.layout        offsets of fairqueue's EncodeStep
//	ratelab.fairqueue.defaults      the lab's settings (fairqueue.DefaultConfig)
//	ratelab.fairqueue.newSim(config) a run, or {error}
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
func fairqueueAPI() map[string]any {
	d := fairqueue.DefaultConfig()
	sessions := make([]any, fairqueue.NumSessions)
	for s := range sessions {
		cost := 1
		if s == fairqueue.Heavy {
			cost = int(d.HeavyCost)
		}
		sessions[s] = map[string]any{"id": fairqueue.SessionName(s), "cost": cost}
	}
	lanes := make([]any, fairqueue.NumLanes)
	for l := range fairqueue.Lane(fairqueue.NumLanes) {
		lanes[l] = map[string]any{"id": l.String(), "name": l.Name()}
	}
	return map[string]any{
		"sessions":   sessions,
		"lanes":      lanes,
		"binNs":      fairqueue.BinNs,
		"windowBins": fairqueue.WindowBins,
		"maxBins":    fairqueue.MaxBins,
		"maxBytes":   fairqueue.MaxStepBytes(fairqueue.MaxBins),
		"defaults":   fairqueueInfo(d),
		"layout": map[string]any{
			"count": fairqueue.StepCount, "now": fairqueue.StepNow, "bound": fairqueue.StepBound,
			"stopped": fairqueue.StepStopped, "header": fairqueue.StepHeader,
			"laneStopped": fairqueue.LaneStopped, "laneServed": fairqueue.LaneServed,
			"laneWaiting": fairqueue.LaneWaiting, "outOfOrder": fairqueue.LaneOutOfOrder,
			"worstGap": fairqueue.LaneWorstGap, "worstA": fairqueue.LaneWorstA, "worstB": fairqueue.LaneWorstB,
			"jointNs": fairqueue.LaneJointNs, "laneHead": fairqueue.LaneHead, "laneFields": fairqueue.LaneFields,
			"arrived": fairqueue.SesArrived, "served": fairqueue.SesServed, "waiting": fairqueue.SesWaiting,
			"p50": fairqueue.SesP50, "p99": fairqueue.SesP99, "share": fairqueue.SesShare, "peak": fairqueue.SesPeak,
			"sessionFields": fairqueue.SessionFields,
			"binStart":      fairqueue.BinStart, "binBusy": fairqueue.BinBusy, "binFields": fairqueue.BinFields,
		},
		"newSim": js.FuncOf(newFairqueueSim),
	}
}

// fairqueueInfo returns the settings of cfg as JavaScript sees them.
func fairqueueInfo(cfg fairqueue.Config) map[string]any {
	return map[string]any{
		"quantum": float64(cfg.Quantum), "burstRate": cfg.BurstRate, "burstSize": cfg.BurstSize,
		"firstBurstNs": float64(cfg.FirstBurstNs), "periodNs": float64(cfg.PeriodNs),
		"heavyCost": float64(cfg.HeavyCost), "heavyLoad": cfg.HeavyLoad, "lightRate": cfg.LightRate,
		"capacity": float64(cfg.CapacityPerSec), "seed": float64(cfg.Seed),
	}
}

// newFairqueueSim is ratelab.fairqueue.newSim(config).
func newFairqueueSim(_ js.Value, args []js.Value) any {
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return errorValue("fairqueue.newSim needs a config object")
	}
	c := config{args[0]}
	impl, msg := pickImpl(c, fairqueue.Reference, yoursFairqueue)
	if msg != "" {
		return errorValue(msg)
	}
	seed, msg := c.seed()
	if msg != "" {
		return errorValue(msg)
	}
	cfg := fairqueue.DefaultConfig()
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
	r, err := fairqueue.New(cfg, impl)
	if err != nil {
		return errorValue(err.Error())
	}
	return wrapFairqueue(r)
}

// wrapFairqueue returns the JavaScript face of r.
func wrapFairqueue(r *fairqueue.Run) js.Value {
	var buf []byte
	o := newObject()
	o.method("step", func(args []js.Value) any {
		if len(args) < 3 {
			return 0
		}
		n := min(max(args[1].Int(), 0), fairqueue.MaxBins)
		for n > 0 && fairqueue.MaxStepBytes(n) > args[2].Length() {
			n--
		}
		if fairqueue.MaxStepBytes(0) > args[2].Length() {
			return 0
		}
		bins := r.Step(untilNs(args[0]), n)
		r.CheckLen()
		buf = r.EncodeStep(buf[:0], bins)
		js.CopyBytesToJS(args[2], buf)
		return len(bins)
	})
	o.method("info", func([]js.Value) any {
		info := fairqueueInfo(r.Config())
		info["impl"], info["implStatus"] = r.Impl(), r.ImplStatus()
		info["stopped"], info["status"] = r.Stopped(), r.Status()
		info["bound"] = float64(r.Bound())
		return info
	})
	return o.obj
}
