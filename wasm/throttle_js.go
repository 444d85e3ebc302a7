//go:build !oneweek || week5

package main

import (
	"strconv"
	"syscall/js"

	"ratelab/lab/throttle"
	refthrottle "ratelab/solutions/throttle"
)

// Week 5: the operator's console.
func init() {
	parts = append(parts, func(o map[string]any) {
		o["throttle"] = throttleAPI()
		o["newThrottleSim"] = js.FuncOf(newThrottleSim)
	})
}

// stateNames are the breaker's states by number, as act takes them.
var stateNames = []string{"normal", "degraded", "paused"}

func rateJS(rl throttle.RateLimit) map[string]any {
	return map[string]any{"maxCalls": int(rl.MaxCalls), "windowNs": float64(rl.WindowNs)}
}

// throttlePresetJS is one preset as JavaScript reads it.
func throttlePresetJS(sc throttle.Scenario) map[string]any {
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

// throttleAPI is ratelab.throttle: what JavaScript needs to read an
// operator's console run (lab/throttle).
func throttleAPI() map[string]any {
	all := throttle.Presets()
	presets := make([]any, len(all))
	for i, sc := range all {
		presets[i] = throttlePresetJS(sc)
	}
	outcomes := make([]any, throttle.NumOutcomes)
	for i := range outcomes {
		outcomes[i] = throttle.Outcome(i).String()
	}
	states := make([]any, len(stateNames))
	for i, s := range stateNames {
		states[i] = s
	}
	return map[string]any{
		"bytes":    throttle.EncodedLen,
		"outcomes": outcomes,
		"states":   states,
		"levels":   []any{"low", "normal", "high"},
		"presets":  presets,
		"layout": map[string]any{
			"now": throttle.HeaderNow, "duration": throttle.HeaderDuration, "done": throttle.HeaderDone,
			"pending": throttle.HeaderPending, "events": throttle.HeaderEvents, "stopped": throttle.HeaderStopped,
			"statusOK": throttle.HeaderStatusOK, "status": throttle.HeaderStatus, "counts": throttle.HeaderCounts,
			"header": throttle.Header, "maxAddresses": throttle.MaxAddresses,
			"stState": throttle.StState, "stRecoverAt": throttle.StRecoverAt, "stDegradedLimit": throttle.StDegradedLimit,
			"stDegradedWrites": throttle.StDegradedWrites, "stMaxCalls": throttle.StMaxCalls, "stWindow": throttle.StWindow,
			"stLevel": throttle.StLevel, "stCWindow": throttle.StCWindow, "stLowBelow": throttle.StLowBelow,
			"stHighAbove": throttle.StHighAbove, "stReduceBps": throttle.StReduceBps, "stIncreaseBps": throttle.StIncreaseBps,
			"stMinMaxCalls": throttle.StMinMaxCalls, "stMaxMaxCalls": throttle.StMaxMaxCalls,
			"eventFields": throttle.EventFields, "at": throttle.EvAt, "kind": throttle.EvKind, "addr": throttle.EvAddr,
			"outcome": throttle.EvOutcome, "state": throttle.EvState, "level": throttle.EvLevel, "maxCalls": throttle.EvMaxCalls,
			"degradedWrites": throttle.EvDegradedWrites, "limit": throttle.EvLimit, "used": throttle.EvUsed,
			"afterState": throttle.EvAfterState, "afterLevel": throttle.EvAfterLevel, "afterMaxCalls": throttle.EvAfterMaxCalls,
			"recoverAt": throttle.EvRecoverAt, "since": throttle.EvSince, "lastSeen": throttle.EvLastSeen,
			"maxEvents": throttle.MaxEvents,
			"kindWrite": int(throttle.Write), "kindKeeper": int(throttle.Keeper), "kindOperator": int(throttle.Operator),
			"kindRecovered": int(throttle.Recovered),
		},
	}
}

// newThrottleSim is ratelab.newThrottleSim(config): config is {preset,
// impl, seed}, each optional (the first preset, the reference, seed 1).
func newThrottleSim(_ js.Value, args []js.Value) any {
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return errorValue("newThrottleSim needs a config object")
	}
	c := config{args[0]}
	impl, msg := pickImpl(c, throttle.Reference, yoursThrottle)
	if msg != "" {
		return errorValue(msg)
	}
	seed := c.num("seed", 1)
	if seed < 0 || seed >= 1<<53 || seed != float64(uint64(seed)) {
		return errorValue("seed must be a whole number from 0 to 2^53")
	}
	sc, err := throttle.Preset(c.str("preset", ""))
	if err != nil {
		return errorValue(err.Error())
	}
	r, err := throttle.New(sc, impl, uint64(seed))
	if err != nil {
		return errorValue(err.Error())
	}
	return wrapThrottle(r, uint64(seed))
}

// wrapThrottle returns the JavaScript face of r:
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
func wrapThrottle(r *throttle.Run, seed uint64) js.Value {
	var sent int
	o := newObject()
	o.batchStep(throttle.EncodedLen, r.Step, func(dst []byte) []byte { return r.Encode(dst, &sent) })
	o.method("act", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return false
		}
		for i, name := range stateNames {
			if args[0].String() == name {
				r.Act(refthrottle.State(i))
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
