package main

import (
	"strconv"
	"syscall/js"

	"ratelab/lab/operator"
	"ratelab/solutions/throttle"
)

// stateNames are the breaker's states by number, as act takes them.
var stateNames = []string{"normal", "degraded", "paused"}

func rateJS(rl operator.RateLimit) map[string]any {
	return map[string]any{"maxCalls": int(rl.MaxCalls), "windowNs": float64(rl.WindowNs)}
}

// operatorPresetJS is one preset as JavaScript reads it.
func operatorPresetJS(sc operator.Scenario) map[string]any {
	c, b := sc.Config.Congestion, sc.Config.Breaker
	addrs := make([]any, len(sc.Addresses))
	for i, a := range sc.Addresses {
		var override any
		if a.Override.MaxCalls > 0 {
			override = rateJS(a.Override)
		}
		phases := make([]any, len(a.Phases))
		for k, p := range a.Phases {
			phases[k] = map[string]any{"fromNs": float64(p.FromNs), "everyNs": float64(p.EveryNs)}
		}
		addrs[i] = map[string]any{
			"name": a.Name, "addr": "0x" + strconv.FormatUint(a.Addr, 16), "whitelisted": a.Whitelisted,
			"override": override, "phases": phases,
		}
	}
	script := make([]any, len(sc.Script))
	for i, a := range sc.Script {
		script[i] = map[string]any{"atNs": float64(a.AtNs), "set": int(a.Set)}
	}
	return map[string]any{
		"name": sc.Name, "title": sc.Title, "durationNs": float64(sc.DurationNs), "keeperEveryNs": float64(sc.KeeperEveryNs),
		"breaker": map[string]any{"ttlNs": float64(b.TTLNs), "degradedWriteLimit": int(b.DegradedWriteLimit), "autoRecover": b.AutoRecover},
		"rate":    rateJS(sc.Config.Rate),
		"congestion": map[string]any{
			"windowNs": float64(c.WindowNs), "lowBelow": int(c.LowBelow), "highAbove": int(c.HighAbove),
			"reduceBps": int(c.ReduceBps), "increaseBps": int(c.IncreaseBps), "minMaxCalls": int(c.MinMaxCalls), "maxMaxCalls": int(c.MaxMaxCalls),
		},
		"addresses": addrs, "script": script,
	}
}

// operatorAPI is ratelab.operator: what JavaScript needs to read an
// operator's console run (lab/operator).
func operatorAPI() map[string]any {
	all := operator.Presets()
	presets := make([]any, len(all))
	for i, sc := range all {
		presets[i] = operatorPresetJS(sc)
	}
	outcomes := make([]any, operator.NumOutcomes)
	for i := range outcomes {
		outcomes[i] = operator.Outcome(i).String()
	}
	states := make([]any, len(stateNames))
	for i, s := range stateNames {
		states[i] = s
	}
	return map[string]any{
		"bytes":    operator.EncodedLen,
		"outcomes": outcomes,
		"states":   states,
		"levels":   []any{"low", "normal", "high"},
		"presets":  presets,
		"layout": map[string]any{
			"now": operator.HeaderNow, "duration": operator.HeaderDuration, "done": operator.HeaderDone,
			"pending": operator.HeaderPending, "events": operator.HeaderEvents, "stopped": operator.HeaderStopped,
			"statusOK": operator.HeaderStatusOK, "status": operator.HeaderStatus, "counts": operator.HeaderCounts,
			"header": operator.Header, "maxAddresses": operator.MaxAddresses,
			"stState": operator.StState, "stRecoverAt": operator.StRecoverAt, "stDegradedLimit": operator.StDegradedLimit,
			"stDegradedWrites": operator.StDegradedWrites, "stMaxCalls": operator.StMaxCalls, "stWindow": operator.StWindow,
			"stLevel": operator.StLevel, "stCWindow": operator.StCWindow, "stLowBelow": operator.StLowBelow,
			"stHighAbove": operator.StHighAbove, "stReduceBps": operator.StReduceBps, "stIncreaseBps": operator.StIncreaseBps,
			"stMinMaxCalls": operator.StMinMaxCalls, "stMaxMaxCalls": operator.StMaxMaxCalls,
			"eventFields": operator.EventFields, "at": operator.EvAt, "kind": operator.EvKind, "addr": operator.EvAddr,
			"outcome": operator.EvOutcome, "state": operator.EvState, "level": operator.EvLevel, "maxCalls": operator.EvMaxCalls,
			"degradedWrites": operator.EvDegradedWrites, "limit": operator.EvLimit, "used": operator.EvUsed,
			"afterState": operator.EvAfterState, "afterLevel": operator.EvAfterLevel, "afterMaxCalls": operator.EvAfterMaxCalls,
			"recoverAt": operator.EvRecoverAt, "since": operator.EvSince, "lastSeen": operator.EvLastSeen,
			"maxEvents": operator.MaxEvents,
			"kindWrite": int(operator.Write), "kindKeeper": int(operator.Keeper), "kindOperator": int(operator.Operator),
			"kindRecovered": int(operator.Recovered),
		},
	}
}

// newOperatorSim is ratelab.newOperatorSim(config): config is {preset,
// impl, seed}, each optional (the first preset, the reference, seed 1).
func newOperatorSim(_ js.Value, args []js.Value) any {
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return errorValue("newOperatorSim needs a config object")
	}
	c := config{args[0]}
	var impl operator.Impl
	switch name := c.str("impl", "reference"); name {
	case "reference":
		impl = operator.Reference
	case "yours":
		impl = yoursThrottle()
	default:
		return errorValue("impl must be reference or yours, not " + name)
	}
	seed := c.num("seed", 1)
	if seed < 0 || seed >= 1<<53 || seed != float64(uint64(seed)) {
		return errorValue("seed must be a whole number from 0 to 2^53")
	}
	sc, err := operator.Preset(c.str("preset", ""))
	if err != nil {
		return errorValue(err.Error())
	}
	r, err := operator.New(sc, impl, uint64(seed))
	if err != nil {
		return errorValue(err.Error())
	}
	return wrapOperator(r, uint64(seed))
}

// wrapOperator returns the JavaScript face of r:
//
//	step(untilNs, bytes)  run up to virtual time untilNs, write the next
//	                      batch of r.Encode into the Uint8Array bytes and
//	                      return its length (call again while its pending
//	                      count is above 0)
//	act(state)            the operator sets "normal", "degraded" or "paused"
//	                      at the time reached; true if the name is one
//	info()                {impl, implStatus, stopped, status, preset, seed,
//	                      now, done, otherError}
//	free()                release the functions
func wrapOperator(r *operator.Run, seed uint64) js.Value {
	var sent int
	o := newObject()
	o.batchStep(operator.EncodedLen, r.Step, func(dst []byte) []byte { return r.Encode(dst, &sent) })
	o.method("act", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return false
		}
		for i, name := range stateNames {
			if args[0].String() == name {
				r.Act(throttle.State(i))
				return true
			}
		}
		return false
	})
	o.method("info", func([]js.Value) any {
		return map[string]any{
			"impl": r.Name(), "implStatus": r.ImplStatus(), "stopped": r.Stopped, "status": r.Status,
			"preset": r.Scenario().Name, "seed": float64(seed),
			"now": float64(r.Now()), "done": r.Done(), "otherError": r.OtherError(),
		}
	})
	return o.obj
}
