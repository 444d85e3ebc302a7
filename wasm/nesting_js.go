package main

import (
	"syscall/js"

	"ratelab/lab/nesting"
)

// nestingAPI is ratelab.nesting: what JavaScript needs to read a
// hierarchy-leak run (lab/nesting).
func nestingAPI() map[string]any {
	cfg := nesting.DefaultConfig()
	sessions := make([]any, nesting.NumSessions)
	for i, s := range cfg.Sessions {
		sessions[i] = map[string]any{
			"name": s.Name, "capacity": float64(s.Budget.Capacity), "rate": float64(s.Budget.RatePerSec),
			"ordersPerSec": float64(s.OrdersPerSec),
		}
	}
	return map[string]any{
		"bytes":    nesting.EncodedLen,
		"sessions": sessions,
		"firm":     map[string]any{"capacity": float64(cfg.Firm.Capacity), "rate": float64(cfg.Firm.RatePerSec)},
		"account":  map[string]any{"capacity": float64(cfg.Account.Capacity), "rate": float64(cfg.Account.RatePerSec)},
		"retryNs":  float64(cfg.RetryNs), "maxAttempts": cfg.MaxAttempts, "durationNs": float64(cfg.DurationNs),
		"layout": map[string]any{
			"now": nesting.HeaderNow, "duration": nesting.HeaderDuration, "done": nesting.HeaderDone,
			"header": nesting.Header, "sideFields": nesting.SideFields,
			"stopped": nesting.SideStopped, "lost": nesting.SideLost, "available": nesting.SideAvailable,
			"sessions": nesting.SideSessions, "sessionFields": nesting.SessionFields,
			"orders": nesting.SessOrders, "attempts": nesting.SessAttempts, "accepted": nesting.SessAccepted,
			"refused": nesting.SessRefused, "gaveUp": nesting.SessGaveUp, "sessionLost": nesting.SessLost,
			"nodeFirm": nesting.NodeFirm, "nodeAccount": nesting.NodeAccount, "nodeSession": nesting.NodeSession,
		},
	}
}

// newNestingSim is ratelab.newNestingSim(config): config is {impl, seed}.
func newNestingSim(_ js.Value, args []js.Value) any {
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return errorValue("newNestingSim needs a config object")
	}
	c := config{args[0]}
	var impl nesting.Impl
	switch name := c.str("impl", "reference"); name {
	case "reference":
		impl = nesting.Reference
	case "yours":
		impl = yoursHierarchy()
	default:
		return errorValue("impl must be reference or yours, not " + name)
	}
	seed, msg := c.seed()
	if msg != "" {
		return errorValue(msg)
	}
	cfg := nesting.DefaultConfig()
	cfg.Seed = seed
	r, err := nesting.New(cfg, impl)
	if err != nil {
		return errorValue(err.Error())
	}
	return wrapNesting(r)
}

// wrapNesting returns the JavaScript face of r:
//
//	step(untilNs, bytes)  run both hierarchies up to virtual time untilNs, write
//	                      r.Encode into the Uint8Array bytes and return its length
//	info()                {impl, implStatus, leakyStatus, stopped, status, now, done}
//	free()                release the functions
func wrapNesting(r *nesting.Run) js.Value {
	o := newObject()
	o.batchStep(nesting.EncodedLen, r.Step, r.Encode)
	o.method("info", func([]js.Value) any {
		return map[string]any{
			"impl": r.Tree.Name, "implStatus": r.Tree.ImplStatus(), "stopped": r.Tree.Stopped, "status": r.Tree.Status,
			"leakyStatus": r.Leaky.ImplStatus(), "now": float64(r.Now()), "done": r.Done(), "seed": float64(r.Config().Seed),
		}
	})
	return o.obj
}
