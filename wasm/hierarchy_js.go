//go:build !oneweek || week3

package main

import (
	"syscall/js"

	"ratelab/lab/hierarchy"
)

// Week 3: nested limits.
func init() {
	parts = append(parts, func(o map[string]any) {
		o["hierarchy"] = hierarchyAPI()
		o["newHierarchySim"] = js.FuncOf(newHierarchySim)
	})
}

// hierarchyAPI is ratelab.hierarchy: what JavaScript needs to read a
// hierarchy-leak run (lab/hierarchy).
func hierarchyAPI() map[string]any {
	cfg := hierarchy.DefaultConfig()
	sessions := make([]any, hierarchy.NumSessions)
	for i, s := range cfg.Sessions {
		sessions[i] = map[string]any{
			"name": s.Name, "capacity": float64(s.Budget.Capacity), "rate": float64(s.Budget.RatePerSec),
			"ordersPerSec": float64(s.OrdersPerSec),
		}
	}
	return map[string]any{
		"bytes":    hierarchy.EncodedLen,
		"sessions": sessions,
		"firm":     map[string]any{"capacity": float64(cfg.Firm.Capacity), "rate": float64(cfg.Firm.RatePerSec)},
		"account":  map[string]any{"capacity": float64(cfg.Account.Capacity), "rate": float64(cfg.Account.RatePerSec)},
		"retryNs":  float64(cfg.RetryNs), "maxAttempts": cfg.MaxAttempts, "durationNs": float64(cfg.DurationNs),
		"layout": map[string]any{
			"now": hierarchy.HeaderNow, "duration": hierarchy.HeaderDuration, "done": hierarchy.HeaderDone,
			"header": hierarchy.Header, "sideFields": hierarchy.SideFields,
			"stopped": hierarchy.SideStopped, "lost": hierarchy.SideLost, "available": hierarchy.SideAvailable,
			"sessions": hierarchy.SideSessions, "sessionFields": hierarchy.SessionFields,
			"orders": hierarchy.SessOrders, "attempts": hierarchy.SessAttempts, "accepted": hierarchy.SessAccepted,
			"refused": hierarchy.SessRefused, "gaveUp": hierarchy.SessGaveUp, "sessionLost": hierarchy.SessLost,
			"nodeFirm": hierarchy.NodeFirm, "nodeAccount": hierarchy.NodeAccount, "nodeSession": hierarchy.NodeSession,
		},
	}
}

// newHierarchySim is ratelab.newHierarchySim(config): config is {impl, seed}.
func newHierarchySim(_ js.Value, args []js.Value) any {
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return errorValue("newHierarchySim needs a config object")
	}
	c := config{args[0]}
	impl, msg := pickImpl(c, hierarchy.Reference, yoursHierarchy)
	if msg != "" {
		return errorValue(msg)
	}
	seed, msg := c.seed()
	if msg != "" {
		return errorValue(msg)
	}
	cfg := hierarchy.DefaultConfig()
	cfg.Seed = seed
	r, err := hierarchy.New(cfg, impl)
	if err != nil {
		return errorValue(err.Error())
	}
	return wrapHierarchy(r)
}

// wrapHierarchy returns the JavaScript face of r:
//
//	step(untilNs, bytes)  run both hierarchies up to virtual time untilNs, write
//	                      r.Encode into the Uint8Array bytes and return its length
//	info()                {impl, implStatus, leakyStatus, stopped, status, now, done}
//	free()                release the functions
func wrapHierarchy(r *hierarchy.Run) js.Value {
	o := newObject()
	o.batchStep(hierarchy.EncodedLen, r.Step, r.Encode)
	o.method("info", func([]js.Value) any {
		return map[string]any{
			"impl": r.Tree.Name, "implStatus": r.Tree.ImplStatus(), "stopped": r.Tree.Stopped, "status": r.Tree.Status,
			"leakyStatus": r.Leaky.ImplStatus(), "now": float64(r.Now()), "done": r.Done(), "seed": float64(r.Config().Seed),
		}
	})
	return o.obj
}
