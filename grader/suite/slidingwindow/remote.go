package slidingwindow

import "ratelab/grader/check"

// Remote returns New for the implementation a check.Remote serves.
var Remote = check.RemoteNew3[New](func(o check.Object) Window { return remoteWindow{o} })

type remoteWindow struct{ check.Object }

func (x remoteWindow) Count(nowNs uint64) uint32 {
	return check.Get[uint32](x.Object, "Count", nowNs)
}

func (x remoteWindow) TryAcquire(nowNs uint64) bool {
	return check.Get[bool](x.Object, "TryAcquire", nowNs)
}
