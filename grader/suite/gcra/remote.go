package gcra

import "ratelab/grader/check"

// Remote returns New for the implementation a check.Remote serves.
var Remote = check.RemoteNew3[New](func(o check.Object) Limiter { return remoteLimiter{o} })

type remoteLimiter struct{ check.Object }

func (x remoteLimiter) TryAcquire(nowNs uint64) bool {
	return check.Get[bool](x.Object, "TryAcquire", nowNs)
}
