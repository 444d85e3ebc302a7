package breaker

import gm "ratelab/grader/model"

// model is the contract (model.Breaker) in the suite's types, with what
// the messages also need: the config as given, and the state before a
// call's time was applied (walk sets it).
type model struct {
	gm.Breaker[State]
	cfg   Config
	prior State
}

func newModel(cfg Config, start uint64) *model {
	return &model{Breaker: *gm.NewBreaker[State](cfg, start), cfg: cfg}
}
