package main

import (
	"syscall/js"

	"ratelab/lab/policy"
)

func budgetJS(b policy.Budget) map[string]any {
	return map[string]any{"capacity": float64(b.Capacity), "rate": float64(b.RatePerSec)}
}

func policyConfigJS(c policy.Config, class string) map[string]any {
	k := c.Classes[class]
	return map[string]any{
		"orders": budgetJS(k.Orders), "cancels": budgetJS(k.Cancels),
		"silenceAfterNs": float64(c.SilenceAfterNs), "disconnectAfterNs": float64(c.DisconnectAfterNs),
	}
}

// policyAPI is ratelab.policy: what JavaScript needs to read a policy run
// (lab/policy).
func policyAPI() map[string]any {
	sc := policy.DefaultScenario()
	phases := make([]any, len(sc.Phases))
	for i, p := range sc.Phases {
		phases[i] = map[string]any{
			"name": p.Name, "fromNs": float64(p.FromNs),
			"orderEveryNs": float64(p.OrderEveryNs), "cancelEveryNs": float64(p.CancelEveryNs),
		}
	}
	names := func(n int, f func(int) string) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	return map[string]any{
		"bytes":    policy.EncodedLen,
		"kinds":    names(int(policy.NumKinds), func(i int) string { return policy.Kind(i).String() }),
		"outcomes": names(int(policy.NumOutcomes), func(i int) string { return policy.Outcome(i).String() }),
		"budgets":  []any{"", "orders", "cancels", "other"},
		"scenario": map[string]any{
			"class": sc.Class, "config": policyConfigJS(sc.Config, sc.Class), "phases": phases,
			"heartbeatEveryNs": float64(sc.HeartbeatEveryNs), "reconnectNs": float64(sc.ReconnectNs),
			"reloadAtNs": float64(sc.ReloadAtNs), "reload": policyConfigJS(sc.Reload, sc.Class),
			"durationNs": float64(sc.DurationNs),
		},
		"layout": map[string]any{
			"now": policy.HeaderNow, "duration": policy.HeaderDuration, "done": policy.HeaderDone,
			"pending": policy.HeaderPending, "events": policy.HeaderEvents, "header": policy.Header,
			"sideFields": policy.SideFields, "stopped": policy.SideStopped, "counts": policy.SideCounts,
			"eventFields": policy.EventFields, "at": policy.EvAt, "kind": policy.EvKind, "outcome": policy.EvOutcome,
			"budget": policy.EvBudget, "retry": policy.EvRetry, "flood": policy.EvFlood, "mark": policy.EvMark,
			"maxEvents": policy.MaxEvents,
			"markNone":  int(policy.MarkNone), "markOpen": int(policy.MarkOpen), "markReload": int(policy.MarkReload),
			"markFlood": int(policy.MarkFlood), "markFloodOver": int(policy.MarkFloodOver),
		},
	}
}

// newPolicySim is ratelab.newPolicySim(config): config is {impl}.
func newPolicySim(_ js.Value, args []js.Value) any {
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return errorValue("newPolicySim needs a config object")
	}
	var impl policy.Impl
	switch name := (config{args[0]}).str("impl", "reference"); name {
	case "reference":
		impl = policy.Reference
	case "yours":
		impl = yoursGateway()
	default:
		return errorValue("impl must be reference or yours, not " + name)
	}
	r, err := policy.New(policy.DefaultScenario(), impl)
	if err != nil {
		return errorValue(err.Error())
	}
	return wrapPolicy(r)
}

// wrapPolicy returns the JavaScript face of r:
//
//	step(untilNs, bytes)  run both gateways up to virtual time untilNs, write
//	                      the next batch of r.Encode into the Uint8Array bytes
//	                      and return its length (call again while its
//	                      pending count is above 0)
//	info()                {impl, implStatus, stopped, status, sharedStatus,
//	                      reloadErrors, now, done}
//	free()                release the functions
func wrapPolicy(r *policy.Run) js.Value {
	var sent [2]int
	o := newObject()
	o.batchStep(policy.EncodedLen, r.Step, func(dst []byte) []byte { return r.Encode(dst, &sent) })
	o.method("info", func([]js.Value) any {
		return map[string]any{
			"impl": r.Gate.Name, "implStatus": r.Gate.ImplStatus(), "stopped": r.Gate.Stopped, "status": r.Gate.Status,
			"sharedStatus": r.Shared.ImplStatus(), "reloadErrors": []any{r.Gate.ReloadError(), r.Shared.ReloadError()},
			"now": float64(r.Now()), "done": r.Done(),
		}
	})
	return o.obj
}
