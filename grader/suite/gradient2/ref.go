package gradient2

import ref "ratelab/solutions/gradient2"

// reference is the solution, as the suite calls it: the calls of each
// replay are sent to the grading child ahead, as the reference makes them
// (see check.Ahead); the suite's tests grade it.
func reference(c Config) Limit {
	return ref.New(ref.Config{
		InitialLimit: c.InitialLimit, MinLimit: c.MinLimit, MaxLimit: c.MaxLimit,
		Smoothing: c.Smoothing, RTTTolerance: c.RTTTolerance, LongWindow: c.LongWindow,
		QueueSize: c.QueueSize,
	})
}
