//go:build !oneweek

package main

import (
	"encoding/json"
	"syscall/js"

	"ratelab/grader/report"
	"ratelab/lab/replay"
)

// The exercise pages' replay of a counterexample.
func init() {
	parts = append(parts, func(o map[string]any) {
		o["replay"] = replayAPI()
	})
}

// replayAPI is ratelab.replay: {exercises, run}. exercises lists the ids
// lab/replay can replay; run(exercise, counterexampleJSON) replays a
// report's counterexample (its setup, setup_call and steps with name and
// args, as the report's JSON has them) on the reference and on Yours and
// returns replay.Result as JSON text: one call across the boundary per
// replay, whatever its length.
func replayAPI() js.Value {
	ids := replay.IDs()
	exercises := make([]any, len(ids))
	for i, id := range ids {
		exercises[i] = id
	}
	return js.ValueOf(map[string]any{
		"exercises": exercises,
		"run":       js.FuncOf(runReplay),
	})
}

func runReplay(_ js.Value, args []js.Value) any {
	var res replay.Result
	if len(args) < 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
		res = replay.Result{Error: "replay.run needs an exercise id and the counterexample's JSON", First: -1}
	} else {
		var cx report.Counterexample
		if err := json.Unmarshal([]byte(args[1].String()), &cx); err != nil {
			res = replay.Result{Exercise: args[0].String(), Error: "the counterexample is not JSON: " + err.Error(), First: -1}
		} else {
			res = replay.Run(args[0].String(), cx, replay.Impls{
				Limiters: yours(), Adaptive: yoursAdaptive(),
				Hierarchy: yoursHierarchy(), Fairqueue: yoursFairqueue(), Gateway: yoursGateway(),
				Throttle: yoursThrottle(), Breaker: yoursBreaker(), Week4: yoursWeek4(),
			})
		}
	}
	b, err := json.Marshal(res)
	if err != nil {
		return `{"error":"` + err.Error() + `","first":-1}`
	}
	return string(b)
}
