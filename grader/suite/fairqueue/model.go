package fairqueue

import gm "ratelab/grader/model"

// model is the contract's deficit round robin (model.FairQueue).
type model = gm.FairQueue

func newModel(quantum uint64) *model { return gm.NewFairQueue(quantum) }
