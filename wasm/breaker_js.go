//go:build !oneweek || week5

package main

import (
	"syscall/js"

	"ratelab/lab/breaker"
)

// Week 5: the failure-driven breaker.
func init() {
	parts = append(parts, func(o map[string]any) {
		o["breaker"] = breakerAPI()
		o["newBreakerSim"] = js.FuncOf(newBreakerSim)
	})
}

// breakerAPI is ratelab.breaker: what JavaScript needs to read a run of the
// failure-driven breaker (lab/breaker).
func breakerAPI() map[string]any {
	scenarios := make([]any, len(breaker.Names))
	for i, name := range breaker.Names {
		sc, _ := breaker.Named(name)
		scenarios[i] = map[string]any{"id": name, "title": sc.Title}
	}
	states := make([]any, breaker.NumStates)
	for i := range states {
		states[i] = breaker.State(i).String()
	}
	return map[string]any{
		"bytes":     breaker.EncodedLen,
		"scenarios": scenarios,
		"states":    states,
		"layout": map[string]any{
			"now": breaker.HeaderNow, "duration": breaker.HeaderDuration, "done": breaker.HeaderDone,
			"pending": breaker.HeaderPending, "events": breaker.HeaderEvents, "header": breaker.Header,
			"sideFields": breaker.SideFields, "stopped": breaker.SideStopped, "state": breaker.SideState, "gen": breaker.SideGen,
			"requests": breaker.SideRequests, "requestsOK": breaker.SideRequestsOK, "requestsFailed": breaker.SideRequestsFailed,
			"attempts": breaker.SideAttempts, "downAttempts": breaker.SideDownAttempts, "retries": breaker.SideRetries,
			"refused": breaker.SideRefused, "probes": breaker.SideProbes, "late": breaker.SideLate,
			"lateChanged": breaker.SideLateChanged, "opens": breaker.SideOpens, "inFlight": breaker.SideInFlight,
			"maxInFlight": breaker.SideMaxInFlight, "downNs": breaker.SideDownNs,
			"eventFields": breaker.EventFields, "at": breaker.EvAt, "kind": breaker.EvKind, "client": breaker.EvClient,
			"try": breaker.EvTry, "evGen": breaker.EvGen, "evState": breaker.EvState, "flags": breaker.EvFlags,
			"start": breaker.EvStart, "ticketGen": breaker.EvTicketGen, "prevGen": breaker.EvPrevGen, "prevState": breaker.EvPrevState,
			"maxEvents": breaker.MaxEvents,
			"kindCall":  int(breaker.KindCall), "kindResult": int(breaker.KindResult), "kindState": int(breaker.KindState),
			"flagAdmitted": breaker.FlagAdmitted, "flagProbe": breaker.FlagProbe, "flagSuccess": breaker.FlagSuccess,
			"flagTimeout": breaker.FlagTimeout, "flagLate": breaker.FlagLate,
		},
	}
}

// newBreakerSim is ratelab.newBreakerSim(config): config is {impl,
// scenario, seed}, each optional (the reference, the outage, seed 1).
func newBreakerSim(_ js.Value, args []js.Value) any {
	if len(args) < 1 || args[0].Type() != js.TypeObject {
		return errorValue("newBreakerSim needs a config object")
	}
	c := config{args[0]}
	impl, msg := pickImpl(c, breaker.Reference, yoursBreaker)
	if msg != "" {
		return errorValue(msg)
	}
	name := c.str("scenario", breaker.OutageName)
	sc, ok := breaker.Named(name)
	if !ok {
		return errorValue("no scenario called " + name)
	}
	seed, msg := c.seed()
	if msg != "" {
		return errorValue(msg)
	}
	sc.Seed = seed
	r, err := breaker.New(sc, impl)
	if err != nil {
		return errorValue(err.Error())
	}
	return wrapBreaker(r)
}

// breakerScenarioJS is the scenario as info() gives it.
func breakerScenarioJS(sc breaker.Scenario) map[string]any {
	spans := func(ss []breaker.Span) []any {
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

// wrapBreaker returns the JavaScript face of r:
//
//	step(untilNs, bytes)  run both sides up to virtual time untilNs, write the
//	                      next batch of r.Encode into the Uint8Array bytes and
//	                      return its length (call again while its pending
//	                      count is above 0)
//	info()                {impl, implStatus, stopped, status, bareStatus,
//	                      scenario, now, done}
//	free()                release the functions
func wrapBreaker(r *breaker.Run) js.Value {
	var sent [2]int
	o := newObject()
	o.batchStep(breaker.EncodedLen, r.Step, func(dst []byte) []byte { return r.Encode(dst, &sent) })
	o.method("info", func([]js.Value) any {
		return map[string]any{
			"impl": r.Breaker.Name, "implStatus": r.Breaker.ImplStatus(), "stopped": r.Breaker.Stopped, "status": r.Breaker.Status,
			"bareStatus": r.Bare.ImplStatus(), "scenario": breakerScenarioJS(r.Scenario()),
			"now": float64(r.Now()), "done": r.Done(),
		}
	})
	return o.obj
}
