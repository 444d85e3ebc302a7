package gradient2

import (
	"math"

	"ratelab/grader/check"
	gm "ratelab/grader/model"
)

// model is the contract's Gradient2 limit (model.Gradient2); sample is
// what it computed for one Update.
type (
	model  = gm.Gradient2
	sample = gm.Gradient2Sample
)

// warmup is the number of samples the long RTT plainly averages.
const warmup = gm.Gradient2Warmup

func newModel(cfg Config) *model { return gm.NewGradient2(cfg) }

// edgy reports whether the outcome of the sample hangs on a comparison
// that a correct implementation rounding differently could decide the
// other way. byLimit says whether QueueSize depends on its argument.
func edgy(s sample, byLimit bool, inflight int) bool {
	if math.Abs(s.Long/s.Short-2) <= 2*check.Tol {
		return true
	}
	if d := math.Abs(float64(inflight) - s.EstBefore/2); d <= check.Tol*s.EstBefore && !(s.ExactBefore && d == 0) {
		return true
	}
	if byLimit && !s.ExactBefore {
		if r := math.Round(s.EstBefore); r != 0 && check.Near(r, s.EstBefore) {
			return true
		}
	}
	return false
}

// accepts reports whether an implementation's int(limit) agrees with the
// model's est within check.Tol.
func accepts(got int, est float64) bool {
	return got == int(est) || got == int(est*(1-check.Tol)) || got == int(est*(1+check.Tol))
}
