// Command wasm is the lab's WebAssembly build: it puts the simulations of
// packages ratelab/lab/sim, lab/governor and lab/gradient2 in the
// browser under the global object ratelab.
//
// Build it with
//
//	GOOS=js GOARCH=wasm go build -o lab.wasm ./wasm
//
// and serve it beside wasm_exec.js from $(go env GOROOT)/lib/wasm. If the
// learner's exercises packages do not compile, build with -tags noyours:
// "Yours" then reports that the code does not build, and Reference still
// works.
//
// It only converts between JavaScript values and lab types; every decision
// and measure is made in lab/, which is tested natively. The JavaScript API
// is:
//
//	ratelab.lanes          [{id, name}] in bit order: fixed, sliding, tokenbucket, slidinglog, gcra
//	ratelab.traffics       the scenario names
//	ratelab.layout         offsets of the state encoding (see sim.State.Encode)
//	ratelab.maxBatch       the most messages one step decides (sim.MaxBatch)
//	ratelab.newSim(config) a simulation, or {error: "..."}
//
// config is {traffic, limit, windowMs, buckets, burst, refill, impl, seed}
// (burst 0 means limit; refill "exact" or "naive"; impl "reference" or
// "yours"). A simulation has
//
//	step(maxMessages, untilNs, bytes)  decide messages up to virtual time untilNs,
//	                                   write them to the Uint8Array bytes (see sim.Batch.Encode:
//	                                   n float64 times, then n accept bytes) and return n
//	state(bytes)                       write sim.State.Encode to bytes; return the length
//	info()                             {impl, limit, windowNs, buckets, burst, rate,
//	                                   bound, refill, traffic, lanes: [{id, name, stopped, status}]}
//	free()                             release the functions; the simulation is unusable after
//
// bytes must be large enough: 9·maxMessages for step, and sim.StateHeader +
// 5·sim.LaneFields + buckets float64s for state.
//
// Week 4 adds two runs, each stepped once per animation frame with one call
// that fills a typed array:
//
//	ratelab.governor               {targets: [{id, title}], actions, windowNs, maxSteps, maxBytes, layout}
//	ratelab.newGovernorSim(config) the governor's drain loop (lab/governor), or {error}
//	ratelab.gradient2               {binNs, maxBins, maxBytes, layout}
//	ratelab.newGradient2Sim(config) the Gradient2 scenario (lab/gradient2), or {error}
//
// A governor config is {target, impl, tries, fixed, seed, floor, ceiling,
// start, low, high}, every field optional (governor.DefaultConfig fills
// the rest); a Gradient2 config is {impl, seed}. A governor run has
//
//	step(maxWindows, bytes)         run up to maxWindows windows (at most maxSteps, and
//	                                as many as bytes holds), write governor's
//	                                EncodeStep to bytes and return how many ran
//	info()                          {impl, implStatus, stopped, status, target, targetTitle,
//	                                floor, ceiling, low, high, tries, fixed, offer, lastBad,
//	                                capacity, windows, changes, ...}
//	free()
//
// and a Gradient2 run has
//
//	step(untilNs, maxBins, bytes)   run whole bins up to untilNs, write gradient2's
//	                                EncodeStep to bytes and return how many ran
//	info()                          {impl, implStatus, stopped, status, workers, serviceNs,
//	                                throughput, binNs, steps, limit}
//	free()
//
// Week 5's failure-driven breaker (lab/breaker) is one more run, stepped
// the same way:
//
//	ratelab.breaker               {bytes, scenarios: [{id, title}], states, layout}
//	ratelab.newBreakerSim(config) the breaker and no breaker on one scenario, or {error}
//
// config is {impl, scenario, seed}, each optional. A run has step(untilNs,
// bytes) (write the next batch of breaker's Encode, return its length;
// call again while its pending count is above 0), info() ({impl,
// implStatus, stopped, status, bareStatus, scenario, now, done}) and
// free().
//
// Week 5's operator's console (lab/throttle) is stepped the same way:
//
//	ratelab.throttle               {bytes, outcomes, states, levels, presets, layout}
//	ratelab.newThrottleSim(config) one throttle gate under four addresses' writes, or {error}
//
// config is {impl, preset, seed}, each optional. A run has step(untilNs,
// bytes) (write the next batch of throttle's Encode, return its length;
// call again while its pending count is above 0), act(state) (the
// operator sets "normal", "degraded" or "paused" at the time reached),
// info() ({impl, implStatus, stopped, status, preset, seed, now, done,
// otherError}) and free().
//
// Learner code that panics stops its run; info().implStatus then says why
// ("Yours: not implemented yet" for a stub).
//
// The page runs the reference and Yours from two builds: the reference on
// the main thread, Yours in a Web Worker (web/static/viz/worker.js), so
// that learner code that never returns cannot freeze the page. The worker
// makes the runs the page asks for with the constructors above (newSim,
// fairqueue.newSim, ...), calls their methods with the same arguments,
// hands typed arrays back transferred, and runs ratelab.replay.run for the
// exercise page's replays; the page (web/static/viz/remote.js) gives each
// call a deadline of 1 s of wall time and ends the worker past it. Nothing
// in this package knows which side it runs on.
//
// # Builds
//
// Built without tags, the command has every part: that is lab.wasm, which
// Yours runs from (and which the live loop rebuilds after each save).
// Each part (one file per visualization, with its yours_ and noyours_
// files) is registered by its file's init and carries a build constraint
// naming the weeks whose lessons show it, e.g.
//
//	//go:build !oneweek || week3
//
// so that a build with -tags noyours,oneweek,week3 holds week 3's
// simulations and the reference alone: week-3.wasm, which week 3's lesson
// draws from (internal/weekbuild builds one per week; weeks whose lessons
// show the same visualizations share one). A week's build is much smaller
// than lab.wasm (the Go runtime is most of what is left), and no save
// changes it, so the browser keeps it cached while the learner works.
// Without noyours, the same tags build yours-week-3.wasm, which has week
// 3's exercises from exercises/ too: the lesson runs Yours from it, once
// the learner asks for Yours; lab.wasm is fetched only for a Replay. The lab
// packages and references a week's build links format their messages with
// strconv, not fmt: fmt's printer, and the reflection it brings, would be
// a fifth of the build (internal/weekbuild's test holds them to it).
// A new visualization's file needs its week in its constraint;
// internal/weekbuild's test fails until it has it. make bench prints
// every build's sizes (raw, gzip and Brotli).
package main
