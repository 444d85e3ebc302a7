package gradient2

import (
	"math"
	"math/rand"

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
	prop := func(d domain, why string) func(int64) check.Outcome {
		return func(seed int64) check.Outcome { return d.property(impl).Run(seed, why) }
	}
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

// Drawing setups and samples.

func initial(r *rand.Rand) float64 {
	return check.Pick(r, 20.0, 100, 250, 1000, 3333.5, 20_000, float64(check.Between(r, 10, 5000)))
}

func window(r *rand.Rand) int {
	return check.Pick(r, 1, 2, 3, 5, 10, 50, 600, int(check.Between(r, 1, 1000)))
}

// roomy draws a setup whose limit has room to move both ways.
func roomy(r *rand.Rand) setup {
	in := initial(r)
	return setup{
		Initial: in, Min: in * check.Pick(r, 0.0, 0, 0.01, 0.1), Max: in * check.Pick(r, 100.0, 1000),
		Smoothing: 1, Tol: 1, Window: window(r),
		Queue: check.Pick(r, queueNil, queueZero, queueEight),
	}
}

func base(r *rand.Rand) uint64 {
	return check.Pick(r, 1000, 50_000, 1_000_000, 12_345_678, check.Between(r, 100, 100_000_000))
}

// times scales the long RTT (before this sample) by k, or draws a first
// RTT.
func times(r *rand.Rand, m *model, ks ...float64) uint64 {
	if m.seen == 0 {
		return base(r)
	}
	return uint64(math.Round(m.long * check.Pick(r, ks...)))
}

// rising draws an RTT slower than the long one, by more than the
// tolerance: the gradient is below 1 but, often, above 0.5.
func rising(r *rand.Rand, m *model) uint64 {
	t := m.cfg.RTTTolerance
	return times(r, m, t, t*1.1, t*1.3, t*1.6, t*2, t*3)
}

// busy draws an inflight that is clearly not app-limited.
func busy(r *rand.Rand, m *model, _ uint64) int {
	e := m.est
	return check.Pick(r, int(math.Ceil(e)), int(math.Ceil(e))+int(check.Between(r, 0, 100)), int(math.Ceil(e/2))+1, 1_000_000)
}

// idle draws an inflight that is clearly app-limited, if there is one.
func idle(r *rand.Rand, m *model) int {
	half := m.est / 2
	if half <= 1 {
		return 0
	}
	return check.Pick(r, 0, int(math.Ceil(half))-1, int(check.Between(r, 0, uint64(half/2))))
}

// boundary returns inflight == limit/2 exactly when that is an integer the
// implementation must hold exactly too; otherwise a busy inflight.
func boundary(r *rand.Rand, m *model) int {
	if h := m.est / 2; m.exact && h == math.Trunc(h) && h < 1e9 {
		return int(h)
	}
	return busy(r, m, 0)
}

var warmupDomain = domain{
	setup:   roomy,
	setupOK: func(s setup) bool { return s.Tol == 1 && s.Smoothing == 1 },
	rtt: func(r *rand.Rand, m *model) uint64 {
		return times(r, m, 1, 1.02, 1.1, 1.3, 1.6, 1.9)
	},
	inflight: busy,
	repeat:   0.3,
	rules:    rules{noAppLimited: true, noDecay: true, inRange: true, noLimitClamp: true},
	maxOps:   14,
}

// decayDomain makes the decaying samples app-limited, and only those, so
// that the decay shows in the gradient of the samples after it (a decaying
// sample's own gradient is clamped to 1 anyway). The tolerance is 1, so
// that the warm-up fill can move the limit.
var decayDomain = domain{
	setup: func(r *rand.Rand) setup {
		s := roomy(r)
		s.Window = check.Pick(r, 2, 3, 5, 10, 50, 600)
		return s
	},
	setupOK: func(s setup) bool { return s.Smoothing == 1 && s.Tol == 1 },
	rtt: func(r *rand.Rand, m *model) uint64 {
		if check.Chance(r, 0.35) {
			return times(r, m, 1/2.5, 1.0/3, 0.2, 0.1)
		}
		return rising(r, m)
	},
	inflight: func(r *rand.Rand, m *model, rtt uint64) int {
		if m.seen > 0 && float64(rtt) < m.long/2 {
			return idle(r, m)
		}
		return busy(r, m, rtt)
	},
	fill:   true,
	repeat: 0.3,
	rules:  rules{decayIsApp: true, inRange: true, noLimitClamp: true},
	maxOps: 12,
}

var appDomain = domain{
	setup: func(r *rand.Rand) setup {
		s := roomy(r)
		s.Tol = check.Pick(r, 1.0, 1.5)
		return s
	},
	setupOK: func(s setup) bool { return s.Smoothing == 1 },
	rtt: func(r *rand.Rand, m *model) uint64 {
		if check.Chance(r, 0.5) {
			return times(r, m, 0.6, 0.8, 1.5, 3, 10)
		}
		return rising(r, m)
	},
	inflight: func(r *rand.Rand, m *model, rtt uint64) int {
		switch r.Intn(4) {
		case 0, 1:
			return idle(r, m)
		case 2:
			return boundary(r, m)
		}
		return busy(r, m, rtt)
	},
	fill:   true,
	repeat: 0.2,
	rules:  rules{noDecay: true, inRange: true, noLimitClamp: true},
	maxOps: 16,
}

var clampDomain = domain{
	setup: func(r *rand.Rand) setup {
		s := roomy(r)
		s.Tol = check.Pick(r, 1.0, 1.2, 1.5, 2, 3)
		s.Min = 0
		return s
	},
	setupOK: func(s setup) bool { return s.Smoothing == 1 },
	rtt: func(r *rand.Rand, m *model) uint64 {
		return times(r, m, 3, 5, 10, 30, 100, 1000, 0.55, 0.7, 0.9, 1, 1.05, 1.2)
	},
	inflight: busy,
	fill:     true,
	repeat:   0.2,
	rules:    rules{noAppLimited: true, noDecay: true, noUpperMid: true, noLimitClamp: true},
	maxOps:   12,
}

var smoothingDomain = domain{
	setup: func(r *rand.Rand) setup {
		s := roomy(r)
		s.Smoothing = check.Pick(r, 0.0, 0.1, 0.2, 0.25, 0.5, 0.75, 0.9, r.Float64())
		s.Queue = check.Pick(r, queueNil, queueZero, queueEight, queueSqrt, queueTenth)
		return s
	},
	setupOK:  func(s setup) bool { return s.Tol == 1 },
	rtt:      func(r *rand.Rand, m *model) uint64 { return times(r, m, 1) },
	inflight: busy,
	repeat:   0.4,
	rules:    rules{noAppLimited: true, constantRTT: true, noLimitClamp: true},
	maxOps:   10,
}

var floorDomain = domain{
	setup: func(r *rand.Rand) setup {
		s := roomy(r)
		s.Min = s.Initial * check.Pick(r, 0.5, 0.8, 0.9, 1.0)
		s.Max = s.Initial*check.Pick(r, 1, 1.05, 1.2, 1.5) + check.Pick(r, 0.0, 4)
		return s
	},
	setupOK:  func(s setup) bool { return s.Tol == 1 && s.Smoothing == 1 },
	rtt:      func(r *rand.Rand, m *model) uint64 { return times(r, m, 1, 1, 1.2, 1.5, 1.9) },
	inflight: busy,
	fill:     true,
	repeat:   0.3,
	rules:    rules{noAppLimited: true, noDecay: true, inRange: true},
	maxOps:   12,
}

var exactDomain = domain{
	setup: func(r *rand.Rand) setup {
		in := initial(r)
		return setup{
			Initial: in, Min: in * check.Pick(r, 0.0, 0.1, 0.5, 1), Max: in * check.Pick(r, 1.0, 1.5, 10, 1000),
			Smoothing: check.Pick(r, 0.2, 0.2, 0.5, 1, 0, r.Float64()),
			Tol:       check.Pick(r, 1.0, 1.5, 1.5, 2, 1+r.Float64()),
			Window:    window(r),
			Queue:     check.Pick(r, queueNil, queueNil, queueZero, queueEight, queueSqrt, queueTenth),
		}
	},
	rtt: func(r *rand.Rand, m *model) uint64 {
		return times(r, m, 0.3, 0.5, 0.8, 1, 1, 1.2, 1.5, 2, 4, 10, 0.5+r.Float64())
	},
	inflight: func(r *rand.Rand, m *model, rtt uint64) int {
		switch r.Intn(3) {
		case 0:
			return idle(r, m)
		case 1:
			return boundary(r, m)
		}
		return busy(r, m, rtt)
	},
	repeat: 0.3,
	limit:  0.1,
	maxOps: 30,
}
