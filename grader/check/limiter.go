package check

// The week 1 and 2 limiters (tokenbucket, gcra, slidingwindow) share the
// shape of their benchmark: New on the learner's code and on the
// reference's, then TryAcquire on precomputed traffic, against
// LimiterBudgetNs (see Parts).

// Loop is a limiter benchmark's loop: n calls of try, each at a time
// steps[i mod len(steps)] after the one before (starting from 0;
// len(steps) a power of two, so the index is a mask), folded into a digest
// of the decisions.
func Loop(n int, steps []uint64, try func(nowNs uint64) bool) uint64 {
	now, d := uint64(0), DigestStart
	mask := len(steps) - 1
	for i := range n {
		now += steps[i&mask]
		d = Digest(d, Bit(try(now)))
	}
	return d
}
