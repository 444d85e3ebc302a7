package breaker

import gm "ratelab/grader/model"

// model is the contract (model.Breaker) in the suite's types, with what
// the messages also need: the state before a call's time was applied
// (walk sets it).
type model struct {
	gm.Breaker[State]
	prior State
}

func newModel(cfg Config, start uint64) *model {
	return &model{Breaker: *gm.NewBreaker[State](cfg, start)}
}
