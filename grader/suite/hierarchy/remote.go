package hierarchy

import "ratelab/grader/check"

// Remote returns New for the implementation a check.Remote serves.
var Remote = check.RemoteNew1[New](func(o check.Object) Tree { return remoteTree{o} })

type remoteTree struct{ check.Object }

func (x remoteTree) Add(parent int, capacity, ratePerSec uint64) (id int, err error) {
	x.Remote.Call(x.Obj, "Add", []any{parent, capacity, ratePerSec}, &id, &err)
	return id, err
}

func (x remoteTree) TryAcquire(node int, nowNs, n uint64) bool {
	return check.Get[bool](x.Object, "TryAcquire", node, nowNs, n)
}

func (x remoteTree) Available(node int, nowNs uint64) uint64 {
	return check.Get[uint64](x.Object, "Available", node, nowNs)
}
