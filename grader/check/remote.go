package check

import (
	"encoding/json"
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
	// catches it as it would a local panic. If the call does not return
	// within the CPU time one call may take, Call may panic with a Hang
	// (the process is stopped; the next call starts another). If the
	// process is lost otherwise (the check's deadline, a crash), Call
	// panics too, and keeps doing so until the check ends; the grader
	// then reports what happened instead of the check's own outcome.
	Call(obj wire.Obj, fn string, args []any, out ...any)
	// Bench makes one measured run of a benchmark loop (see BenchSpec).
	Bench(spec BenchSpec) BenchRun
}

// Hang is what a Remote's Call panics with when the call it made did not
// return within the CPU time one call may take (an endless loop, or work
// that grows with its arguments). Message says so in the learner's terms,
// naming the call with its arguments. A replay records it as the last
// step's panic (see Trace.Hung); a check reports it as a timeout, which is
// charged once however many checks meet it (see Suite.Judge).
type Hang struct{ Message string }

func (h Hang) Error() string { return h.Message }

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

// Profiler is a Remote that can tell where a benchmark loop allocates.
type Profiler interface {
	// Profile makes one more run of a benchmark loop, as Bench does, with
	// every heap allocation of its measured iterations recorded, and
	// returns the lines of the learner's code they were made at, as the
	// other process reads them from its heap profile: advisory, since the
	// learner's code runs in that process too (see AllocSites). It never
	// panics: a run that is lost, or answers what cannot be true, gives no
	// lines, and the check goes on as if it had not been asked.
	Profile(spec BenchSpec) []AllocRecord
}

// AllocRecord is a line of the learner's code a profiled run allocated at.
type AllocRecord struct {
	File string // the file's base name
	Line int
	// Callee is the function the line called that made the allocation
	// (the frame just inside the learner's, "runtime.growslice"), or "".
	Callee string
	Count  uint64 // allocations made there during the run's measured iterations
	// FuncLit is set where a function literal starts on the line, as the
	// grader read the learner's file: a new object made there is the
	// closure.
	FuncLit bool
}

// Ahead is a Remote that can be sent a replay's calls before the replay
// makes them, so that a script costs the other process one request, not
// one a call. The grader's own replay still makes every call and judges
// every answer: Ahead only lets the Remote answer the calls that were
// sent ahead without asking the other process again.
type Ahead interface {
	Remote
	// Base is the handle the objects made by the next calls sent ahead
	// are given from, or 0 if no calls are to be sent ahead now (the
	// grading sends each call by itself, say).
	Base() wire.Obj
	// SendAhead sends calls (request lines) with the answer expected of
	// each (answer lines), as Recorder recorded them after Start(Base()).
	// The other process makes them in order until one answers otherwise;
	// the calls the replay then makes are answered from there, as far as
	// they went. Past that, the Remote asks again, if again is not nil,
	// for the calls that follow the answers the replay was given so far
	// (answer lines, in order), and sends those ahead too; it asks one by
	// one where again has nothing that fits.
	SendAhead(calls, answers []json.RawMessage, again func(given []json.RawMessage) (calls, answers []json.RawMessage))
	// EndAhead ends the replay: every call sent ahead and made must have
	// been asked for by then.
	EndAhead()
}

// Recorder serves the reference in the grader's own process and records
// the calls made to it, with its answers, as the protocol's lines (see
// harness.Record). A replay of a script on the reference gives the calls
// that the replay on the implementation under test will make if that
// answers as the reference does.
type Recorder interface {
	Remote
	// Start begins a recording, its objects given handles from base on.
	Start(base wire.Obj)
	// Force has the next len(given) calls answered with given (answer
	// lines), not recorded: what the recording then holds are the calls a
	// replay makes after an implementation gave those answers.
	Force(given []json.RawMessage)
	// Recorded returns the calls made since Start (but those Force
	// answered) and their answers, up to a size the Recorder bounds.
	Recorded() (calls, answers []json.RawMessage)
}
