package slidingwindow

import gm "ratelab/grader/model"

// model is the contract's sliding window (model.Window).
type model struct{ *gm.Window }

func newModel(s setup) *model { return &model{gm.NewWindow(s.Limit, s.WindowNs, s.Buckets)} }

// edge reports whether a bucket dist buckets behind the current one is on
// the window's edge: buckets-1 or buckets behind, or beyond that but still
// overlapping windowNs when buckets does not divide it. These are the
// buckets that a window one bucket too narrow or too wide, or measured in
// nanoseconds instead of buckets, gets wrong.
func (m *model) edge(dist uint64) bool {
	return dist != 0 && dist >= m.K-1 && dist <= max(m.K, (m.WindowNs-1)/m.BucketNs)
}

// apply makes the call o on the model and returns the new latest time.
func (m *model) apply(o op, latest uint64) uint64 {
	now := o.at(latest, m.BucketNs)
	if o.Count {
		m.Count(now)
	} else {
		m.TryAcquire(now)
	}
	return max(latest, now)
}
