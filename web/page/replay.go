package page

import (
	"encoding/json"

	"ratelab/grader/report"
	"ratelab/lab/replay"
)

// replayJS is the exercise page's script that replays a counterexample in
// the lab's WebAssembly (web/static/replay.js): it finds each element
// marked data-replay, whose data-replay-cx holds the counterexample as the
// report's JSON has it, and un-hides its Replay button.
const replayJS = "replay.js"

// replayReady reports whether the exercise page can replay: lab.wasm and
// Go's loader are built.
func (a Assets) replayReady() bool { return a.files[labWasm] && a.files[wasmExecJS] }

// replayable reports whether the counterexample of a check of exercise id
// can be replayed: lab/replay knows the exercise and the report carries
// the calls as data (reports from before setup_call do not; the
// governor's pure Decide needs none, its setup "cfg = Config{…}" is read
// by lab/replay).
func replayable(id string, cx report.Counterexample) bool {
	return replay.Replayable(id, &cx)
}

// replayData is cx as the report's JSON has it, for replay.js.
func replayData(cx report.Counterexample) string {
	b, err := json.Marshal(cx)
	if err != nil {
		return "{}"
	}
	return string(b)
}
