package gradient2

import (
	"ratelab/grader/check"
	"ratelab/grader/report"
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

// Suite returns the checks of the implementation r serves; a nil r only
// lists them.
func Suite(r check.Remote) check.Suite {
	impl := Remote(r)
	prop := func(d domain, why string) func(int64) check.Outcome { return d.property(impl).Runs(why) }
	return check.Suite{
		Exercise:   "gradient2",
		NotStarted: func() bool { return notStarted(impl) },
		Checks: []check.Check{
			{
				ID: "gradient2/warmup", Title: "Averages the first 10 RTTs plainly, then exponentially", Kind: report.Property, Pitfall: "warmup", Points: 4,
				Hint: "For samples 1 to 10 the long RTT is the plain mean of the samples so far (keep their sum and count); from the 11th it is long*(1-f) + rtt*f with f = 2/(LongWindow+1), a float.",
				Run:  prop(warmupDomain, "Here the RTT rises, so the gradient long/short shows the long RTT sample by sample: the mean of the samples so far for the first 10, then an exponential average with factor 2/(LongWindow+1)."),
			},
			{
				ID: "gradient2/long-rtt-decay", Title: "Pulls a long RTT over twice the short one down by 5%, from the next sample on", Kind: report.Property, Pitfall: "long-rtt-decay", Points: 4,
				Hint: "After adding the sample, if long/short > 2 multiply the stored long RTT by 0.95: the next sample starts from the decayed value. During the warm-up the next value is the mean again, so a decay there does not last.",
				Run:  prop(decayDomain, "A fast (app-limited) sample made the long RTT more than twice the short one, so the stored long RTT was multiplied by 0.95: the gradient of the samples after it shows whether it was. (An app-limited sample still goes into the long RTT.)"),
			},
			{
				ID: "gradient2/app-limited", Title: "Leaves the limit alone while fewer than half of it are in flight, but records the RTT", Kind: report.Property, Pitfall: "app-limited", Points: 4,
				Hint: "inflight < limit/2 (strictly) means the application, not the server, limited the load: return the limit unchanged, but only after the sample went into the long RTT.",
				Run:  prop(appDomain, "A sample with inflight < limit/2 changes nothing in the limit, but still counts in the long RTT; inflight == limit/2 is not app-limited."),
			},
			{
				ID: "gradient2/gradient-clamp", Title: "Keeps the gradient in [0.5, 1], with the RTT tolerance", Kind: report.Property, Pitfall: "gradient-clamp", Points: 4,
				Hint: "gradient = max(0.5, min(1, RTTTolerance*long/short)): a short RTT a little slower than the long one is tolerated (gradient 1), a much slower one halves the limit at most.",
				Run:  prop(clampDomain, "Each sample here is in a corner of the clamp: RTTTolerance*long/short is at least 1 (gradient 1, the limit grows by the queue) or at most 0.5 (gradient 0.5)."),
			},
			{
				ID: "gradient2/smoothing", Title: "Takes a Smoothing share of the new limit", Kind: report.Property, Pitfall: "smoothing", Points: 3,
				Hint: "n = limit*gradient + queue, then limit*(1-Smoothing) + n*Smoothing: the queue goes into n, before the smoothing, and Smoothing weighs the new value.",
				Run:  prop(smoothingDomain, "The RTT is constant here, so the gradient is 1 and each sample moves the limit by Smoothing*queue, where queue is QueueSize(int(limit)), or 4."),
			},
			{
				ID: "gradient2/floor-ceiling", Title: "Keeps the limit in [MinLimit, MaxLimit]", Kind: report.Property, Pitfall: "floor-ceiling", Points: 3,
				Hint: "Clamp after the smoothing, on every sample that moves the limit; keep the clamped value as the limit.",
				Run:  prop(floorDomain, "The limit is clamped into [MinLimit, MaxLimit] after each sample that moves it."),
			},
			{
				ID: "gradient2/exactness", Title: "Agrees with the formula on random streams", Kind: report.Property, Pitfall: "exactness", Points: 3,
				Hint: "Replay the counterexample with the contract's steps in order: queue from int(limit) before the sample, long RTT, decay of the stored value, app-limited test, clamped gradient, smoothing, clamp. Keep the limit as a float64 between samples.",
				Run:  prop(exactDomain, "Every Update and Limit must agree with the contract's formula (within a relative 1e-9 of the limit)."),
			},
		},
	}
}

// notStarted reports whether impl is the untouched stub.
func notStarted(impl New) bool {
	cfg := Config{InitialLimit: 20, MinLimit: 20, MaxLimit: 200, Smoothing: 0.2, RTTTolerance: 1.5, LongWindow: 600}
	l, p := check.Call(func() Limit { return impl(cfg) })
	if p != nil {
		return p.Stub()
	}
	_, p1 := check.Call(func() int { return l.Update(1000, 20) })
	_, p2 := check.Call(func() int { return l.Limit() })
	return p1.Stub() && p2.Stub()
}
