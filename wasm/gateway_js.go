//go:build !oneweek || week3

package main

import (
	"syscall/js"

	"ratelab/lab/gateway"
)

// Week 3: the gateway's policy.
func init() {
	parts = append(parts, func(o map[string]any) {
		o["gateway"] = gatewayAPI()
		o["newGatewaySim"] = js.FuncOf(newGatewaySim)
	})
}

func budgetJS(b gateway.Budget) map[string]any {
	return map[string]any{"capacity": float64(b.Capacity), "rate": float64(b.RatePerSec)}
}

func gatewayConfigJS(c gateway.Config, class string) map[string]any {
	k := c.Classes[class]
	return map[string]any{
		"orders": budgetJS(k.Orders), "cancels": budgetJS(k.Cancels),
		"silenceAfterNs": float64(c.SilenceAfterNs), "disconnectAfterNs": float64(c.DisconnectAfterNs),
	}
}

// gatewayAPI is ratelab.gateway: what JavaScript needs to read a gateway run
// (lab/gateway).
func gatewayAPI() map[string]any {
	sc := gateway.DefaultScenario()
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
		"bytes":    gateway.EncodedLen,
		"kinds":    names(int(gateway.NumKinds), func(i int) string { return gateway.Kind(i).String() }),
		"outcomes": names(int(gateway.NumOutcomes), func(i int) string { return gateway.Outcome(i).String() }),
		"budgets":  []any{"", "orders", "cancels", "other"},
		"scenario": map[string]any{
			"class": sc.Class, "config": gatewayConfigJS(sc.Config, sc.Class), "phases": phases,
			"heartbeatEveryNs": float64(sc.HeartbeatEveryNs), "reconnectNs": float64(sc.ReconnectNs),
			"reloadAtNs": float64(sc.ReloadAtNs), "reload": gatewayConfigJS(sc.Reload, sc.Class),
			"durationNs": float64(sc.DurationNs),
		},
		"layout": map[string]any{
			"now": gateway.HeaderNow, "duration": gateway.HeaderDuration, "done": gateway.HeaderDone,
			"pending": gateway.HeaderPending, "events": gateway.HeaderEvents, "header": gateway.Header,
			"sideFields": gateway.SideFields, "stopped": gateway.SideStopped, "counts": gateway.SideCounts,
			"eventFields": gateway.EventFields, "at": gateway.EvAt, "kind": gateway.EvKind, "outcome": gateway.EvOutcome,
			"budget": gateway.EvBudget, "retry": gateway.EvRetry, "flood": gateway.EvFlood, "mark": gateway.EvMark,
			"maxEvents": gateway.MaxEvents,
			"markNone":  int(gateway.MarkNone), "markOpen": int(gateway.MarkOpen), "markReload": int(gateway.MarkReload),
			"markFlood": int(gateway.MarkFlood), "markFloodOver": int(gateway.MarkFloodOver),
		},
	}
}

// newGatewaySim is ratelab.newGatewaySim(config): config is {impl}.
func newGatewaySim(_ js.Value, args []js.Value) any {
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return errorValue("newGatewaySim needs a config object")
	}
	var impl gateway.Impl
	switch name := (config{args[0]}).str("impl", "reference"); name {
	case "reference":
		impl = gateway.Reference
	case "yours":
		impl = yoursGateway()
	default:
		return errorValue("impl must be reference or yours, not " + name)
	}
	r, err := gateway.New(gateway.DefaultScenario(), impl)
	if err != nil {
		return errorValue(err.Error())
	}
	return wrapGateway(r)
}

// wrapGateway returns the JavaScript face of r:
//
//	step(untilNs, bytes)  run both gateways up to virtual time untilNs, write
//	                      the next batch of r.Encode into the Uint8Array bytes
//	                      and return its length (call again while its
//	                      pending count is above 0)
//	info()                {impl, implStatus, stopped, status, sharedStatus,
//	                      reloadErrors, now, done}
//	free()                release the functions
func wrapGateway(r *gateway.Run) js.Value {
	var sent [2]int
	o := newObject()
	o.batchStep(gateway.EncodedLen, r.Step, func(dst []byte) []byte { return r.Encode(dst, &sent) })
	o.method("info", func([]js.Value) any {
		return map[string]any{
			"impl": r.Gate.Name, "implStatus": r.Gate.ImplStatus(), "stopped": r.Gate.Stopped, "status": r.Gate.Status,
			"sharedStatus": r.Shared.ImplStatus(), "reloadErrors": []any{r.Gate.ReloadError(), r.Shared.ReloadError()},
			"now": float64(r.Now()), "done": r.Done(),
		}
	})
	return o.obj
}
