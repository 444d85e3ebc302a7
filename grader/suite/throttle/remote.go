package throttle

import "ratelab/grader/check"

// Remote returns the Impl r serves.
func Remote(r check.Remote) Impl {
	return Impl{
		New: func(cfg Config, nowNs uint64) (Gate, error) {
			return check.NewRemote(r, "New", func(o check.Object) Gate { return remoteGate{o} }, cfg, nowNs)
		},
	}
}

type remoteGate struct{ check.Object }

func (x remoteGate) call(fn string, args ...any) { x.Remote.Call(x.Obj, fn, args) }

func (x remoteGate) SetState(s State, nowNs uint64) { x.call("SetState", s, nowNs) }
func (x remoteGate) SetIssuerLimit(addr uint64, rl RateLimit) error {
	return check.Get[error](x.Object, "SetIssuerLimit", addr, rl)
}
func (x remoteGate) ClearIssuerLimit(addr uint64)        { x.call("ClearIssuerLimit", addr) }
func (x remoteGate) SetWhitelisted(addr uint64, on bool) { x.call("SetWhitelisted", addr, on) }
func (x remoteGate) Write(addr, nowNs uint64) WriteResult {
	return check.Get[WriteResult](x.Object, "Write", addr, nowNs)
}
func (x remoteGate) AdjustCongestion(nowNs uint64) Level {
	return check.Get[Level](x.Object, "AdjustCongestion", nowNs)
}
func (x remoteGate) Status(nowNs uint64) Status { return check.Get[Status](x.Object, "Status", nowNs) }
