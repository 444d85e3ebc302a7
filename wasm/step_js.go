package main

import "syscall/js"

// batchStep gives o the method step(untilNs, bytes) of a run stepped by
// virtual time that hands its state over in batches of at most size bytes
// (breaker, throttle, gateway, hierarchy): step runs the run up to untilNs,
// writes the batch encode appends into the Uint8Array bytes and returns
// its length. It returns 0 and runs nothing when an argument is missing or
// bytes is shorter than size. A paged run's encode hands over the next
// page of its events on each call: the caller steps again, to the same
// time, while the batch's pending count is above 0.
func (o *jsObject) batchStep(size int, step func(untilNs uint64), encode func(dst []byte) []byte) {
	var buf []byte
	o.method("step", func(args []js.Value) any {
		if len(args) < 2 || args[1].Length() < size {
			return 0
		}
		step(untilNs(args[0]))
		buf = encode(buf[:0])
		return js.CopyBytesToJS(args[1], buf)
	})
}
