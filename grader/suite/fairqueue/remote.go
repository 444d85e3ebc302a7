package fairqueue

import "ratelab/grader/check"

// Remote returns New for the implementation a check.Remote serves.
var Remote = check.RemoteNew1[New](func(o check.Object) Queue { return remoteQueue{o} })

type remoteQueue struct{ check.Object }

func (x remoteQueue) Push(session uint32, cost uint64) {
	x.Remote.Call(x.Obj, "Push", []any{session, cost})
}

func (x remoteQueue) Pop() (session uint32, cost uint64, ok bool) {
	x.Remote.Call(x.Obj, "Pop", nil, &session, &cost, &ok)
	return session, cost, ok
}

func (x remoteQueue) Len() int { return check.Get[int](x.Object, "Len") }
