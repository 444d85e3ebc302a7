package gateway

import "ratelab/grader/check"

// Remote returns the Impl r serves.
func Remote(r check.Remote) Impl {
	pkg := check.Object{Remote: r}
	return Impl{
		New: func(cfg Config, nowNs uint64) (Gateway, error) {
			return check.NewRemote(r, "New", func(o check.Object) Gateway { return remoteGateway{o} }, cfg, nowNs)
		},
		Validate: func(cfg Config) error { return check.Get[error](pkg, "Validate", cfg) },
	}
}

type remoteGateway struct{ check.Object }

func (x remoteGateway) Open(session uint64, class string, nowNs uint64) error {
	return check.Get[error](x.Object, "Open", session, class, nowNs)
}

func (x remoteGateway) Admit(session uint64, kind Kind, nowNs uint64) Verdict {
	return check.Get[Verdict](x.Object, "Admit", session, kind, nowNs)
}

func (x remoteGateway) Reload(cfg Config, nowNs uint64) error {
	return check.Get[error](x.Object, "Reload", cfg, nowNs)
}
