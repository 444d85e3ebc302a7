package tokenbucket

import "ratelab/grader/check"

// Remote returns New for the implementation a check.Remote serves.
var Remote = check.RemoteNew3[New](func(o check.Object) Bucket { return remoteBucket{o} })

type remoteBucket struct{ check.Object }

func (x remoteBucket) TryAcquire(nowNs, n uint64) bool {
	return check.Get[bool](x.Object, "TryAcquire", nowNs, n)
}

func (x remoteBucket) Available(nowNs uint64) uint64 {
	return check.Get[uint64](x.Object, "Available", nowNs)
}
