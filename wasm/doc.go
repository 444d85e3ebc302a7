// Command wasm is the lab's WebAssembly build: it puts the simulation of
// package ratelab/lab/sim in the browser under the global object ratelab.
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
//	info()                             {impl, implStatus, limit, windowNs, buckets, burst, rate,
//	                                   bound, refill, traffic, lanes: [{id, name, stopped, status}]}
//	free()                             release the functions; the simulation is unusable after
//
// bytes must be large enough: 9·maxMessages for step, and sim.StateHeader +
// 5·sim.LaneFields + buckets float64s for state.
package main
