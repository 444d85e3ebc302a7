package gradient2

import (
	_ "embed"

	"ratelab/grader/check"
)

// Config mirrors the exercise's Config.
type Config struct {
	InitialLimit, MinLimit, MaxLimit float64
	Smoothing                        float64
	RTTTolerance                     float64
	LongWindow                       int
	QueueSize                        func(limit int) float64
}

// Limit is the API every implementation offers.
type Limit interface {
	Update(rttNs uint64, inflight int) int
	Limit() int
}

// New builds a limit: gradient2.New, adapted to take the suite's Config
// (converted field by field) and return the interface.
type New func(cfg Config) Limit

//go:embed checks.json
var prose []byte

// domains are the properties' domains, by check name.
var domains = check.ByName(warmupDomain, decayDomain, appDomain, clampDomain, smoothingDomain, floorDomain, exactDomain)

// parts are the suite's checks, its properties alone; their words are in
// checks.json.
var parts = check.Parts[New, domain, setup, op]{
	Exercise: "gradient2", Prose: prose, Remote: Remote, NotStarted: notStarted,
	Domains: domains, Property: domain.property,
}

// Suite returns the checks of the implementation r serves; a nil r only
// lists them.
func Suite(r check.Remote) check.Suite { return parts.Suite(r) }

// notStarted reports whether impl is the untouched stub.
func notStarted(impl New) bool {
	cfg := Config{InitialLimit: 20, MinLimit: 20, MaxLimit: 200, Smoothing: 0.2, RTTTolerance: 1.5, LongWindow: 600}
	return check.Untouched(func() Limit { return impl(cfg) }, func(l Limit) { l.Update(1000, 20) }, func(l Limit) { l.Limit() })
}
