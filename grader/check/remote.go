package check

import (
	"time"

	"ratelab/grader/wire"
)

// Remote is the implementation under test as a check sees it: code in
// another process that makes the calls it is sent and answers with their
// results. A suite adapts it to the exercise's interfaces with small proxy
// types, so its replays call the learner's code as if it were local while
// every decision stays in the grader.
type Remote interface {
	// Call calls the package function fn (obj 0) or the method fn of the
	// object obj with args, and stores the results in out (pointers; a
	// *wire.Obj for a result that is an object). If the call panicked,
	// Call panics with the panic's message, so Call (the function below)
	// catches it as it would a local panic. If the process is lost (a
	// timeout, a crash), Call panics too, and keeps doing so until the
	// check ends; the grader then reports what happened instead of the
	// check's own outcome.
	Call(obj wire.Obj, fn string, args []any, out ...any)
	// Bench makes one measured run of a benchmark loop (see BenchSpec).
	Bench(spec BenchSpec) BenchRun
}

// BenchSpec is one run of a benchmark loop a Remote is asked for. The
// Remote builds the run (Loop's state, and its traffic drawn from Seed)
// and makes Warm iterations of it, neither timed nor counted, then
// measures N more.
type BenchSpec struct {
	Loop string // "learner" or "reference"
	Seed uint64 // the run's traffic, drawn afresh for every run
	Warm int    // iterations before the measured ones
	N    int    // iterations measured
}

// BenchRun is one measured run of a benchmark loop.
type BenchRun struct {
	Digest uint64        // the loop's digest of its measured iterations' decisions
	Allocs uint64        // heap allocations during the measured iterations
	Time   time.Duration // their CPU time (or wall time, see Clock)
	Clock  string        // how Time was measured, for the report
	Panic  *Panic        // the loop panicked; nothing else is set
}
