package main

import (
	"syscall/js"

	"ratelab/lab/circuit"
)

// circuitAPI is ratelab.circuit: what JavaScript needs to read a run of the
// failure-driven breaker (lab/circuit).
func circuitAPI() map[string]any {
	scenarios := make([]any, len(circuit.Names))
	for i, name := range circuit.Names {
		sc, _ := circuit.Named(name)
		scenarios[i] = map[string]any{"id": name, "title": sc.Title}
	}
	states := make([]any, circuit.NumStates)
	for i := range states {
		states[i] = circuit.State(i).String()
	}
	return map[string]any{
		"bytes":     circuit.EncodedLen,
		"scenarios": scenarios,
		"states":    states,
		"layout": map[string]any{
			"now": circuit.HeaderNow, "duration": circuit.HeaderDuration, "done": circuit.HeaderDone,
			"pending": circuit.HeaderPending, "events": circuit.HeaderEvents, "header": circuit.Header,
			"sideFields": circuit.SideFields, "stopped": circuit.SideStopped, "state": circuit.SideState, "gen": circuit.SideGen,
			"requests": circuit.SideRequests, "requestsOK": circuit.SideRequestsOK, "requestsFailed": circuit.SideRequestsFailed,
			"attempts": circuit.SideAttempts, "downAttempts": circuit.SideDownAttempts, "retries": circuit.SideRetries,
			"refused": circuit.SideRefused, "probes": circuit.SideProbes, "late": circuit.SideLate,
			"lateChanged": circuit.SideLateChanged, "opens": circuit.SideOpens, "inFlight": circuit.SideInFlight,
			"maxInFlight": circuit.SideMaxInFlight, "downNs": circuit.SideDownNs,
			"eventFields": circuit.EventFields, "at": circuit.EvAt, "kind": circuit.EvKind, "client": circuit.EvClient,
			"try": circuit.EvTry, "evGen": circuit.EvGen, "evState": circuit.EvState, "flags": circuit.EvFlags,
			"start": circuit.EvStart, "ticketGen": circuit.EvTicketGen, "prevGen": circuit.EvPrevGen, "prevState": circuit.EvPrevState,
			"maxEvents": circuit.MaxEvents,
			"kindCall":  int(circuit.KindCall), "kindResult": int(circuit.KindResult), "kindState": int(circuit.KindState),
			"flagAdmitted": circuit.FlagAdmitted, "flagProbe": circuit.FlagProbe, "flagSuccess": circuit.FlagSuccess,
			"flagTimeout": circuit.FlagTimeout, "flagLate": circuit.FlagLate,
		},
	}
}

// newCircuitSim is ratelab.newCircuitSim(config): config is {impl,
// scenario, seed}, each optional (the reference, the outage, seed 1).
func newCircuitSim(_ js.Value, args []js.Value) any {
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return errorValue("newCircuitSim needs a config object")
	}
	c := config{args[0]}
	var impl circuit.Impl
	switch name := c.str("impl", "reference"); name {
	case "reference":
		impl = circuit.Reference
	case "yours":
		impl = yoursBreaker()
	default:
		return errorValue("impl must be reference or yours, not " + name)
	}
	name := c.str("scenario", circuit.OutageName)
	sc, ok := circuit.Named(name)
	if !ok {
		return errorValue("no scenario called " + name)
	}
	seed, msg := c.seed()
	if msg != "" {
		return errorValue(msg)
	}
	sc.Seed = seed
	r, err := circuit.New(sc, impl)
	if err != nil {
		return errorValue(err.Error())
	}
	return wrapCircuit(r)
}

// circuitScenarioJS is the scenario as info() gives it.
func circuitScenarioJS(sc circuit.Scenario) map[string]any {
	spans := func(ss []circuit.Span) []any {
		out := make([]any, len(ss))
		for i, d := range ss {
			out[i] = map[string]any{"fromNs": float64(d.FromNs), "toNs": float64(d.ToNs)}
		}
		return out
	}
	return map[string]any{
		"id": sc.Name, "title": sc.Title,
		"failureThreshold": sc.Breaker.FailureThreshold, "openNs": float64(sc.Breaker.OpenNs), "halfOpenProbes": sc.Breaker.HalfOpenProbes,
		"clients": sc.Clients, "everyNs": float64(sc.EveryNs), "tries": sc.Tries, "retryNs": float64(sc.RetryNs),
		"latencyNs": float64(sc.LatencyNs), "slowPerMille": sc.SlowPerMille, "slowNs": float64(sc.SlowNs),
		"failNs": float64(sc.FailNs), "hangPerMille": sc.HangPerMille, "timeoutNs": float64(sc.TimeoutNs),
		"down": spans(sc.Down), "slow": spans(sc.Slow), "durationNs": float64(sc.DurationNs), "seed": float64(sc.Seed),
	}
}

// wrapCircuit returns the JavaScript face of r:
//
//	step(untilNs, bytes)  run both sides up to virtual time untilNs, write the
//	                      next batch of r.Encode into the Uint8Array bytes and
//	                      return its length (call again while its pending
//	                      count is above 0)
//	info()                {impl, implStatus, stopped, status, bareStatus,
//	                      scenario, now, done}
//	free()                release the functions
func wrapCircuit(r *circuit.Run) js.Value {
	var sent [2]int
	o := newObject()
	o.batchStep(circuit.EncodedLen, r.Step, func(dst []byte) []byte { return r.Encode(dst, &sent) })
	o.method("info", func([]js.Value) any {
		return map[string]any{
			"impl": r.Breaker.Name, "implStatus": r.Breaker.ImplStatus(), "stopped": r.Breaker.Stopped, "status": r.Breaker.Status,
			"bareStatus": r.Bare.ImplStatus(), "scenario": circuitScenarioJS(r.Scenario()),
			"now": float64(r.Now()), "done": r.Done(),
		}
	})
	return o.obj
}
