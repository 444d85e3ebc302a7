package replay

import (
	"math"
	"math/rand/v2"
	"testing"

	"ratelab/lab/operator"
	"ratelab/solutions/throttle"
)

func TestThrottleReplaysTheGrade(t *testing.T) {
	replayCaptured(t, "throttle", "counts-refused", Impls{Throttle: fixtureThrottle()})
}

// randomThrottleConfig draws a valid config: small windows and limits so
// that every refusal and every level comes up.
func randomThrottleConfig(r *rand.Rand) operator.Config {
	var cfg operator.Config
	cfg.Breaker.AutoRecover = r.IntN(2) == 0
	cfg.Breaker.TTLNs = []uint64{1, 50, 1_000_000, math.MaxUint64}[r.IntN(4)]
	cfg.Breaker.DegradedWriteLimit = uint32(r.IntN(4))
	cfg.Rate = operator.RateLimit{MaxCalls: uint32(1 + r.IntN(4)), WindowNs: []uint64{1, 100, 10_000_000}[r.IntN(3)]}
	c := &cfg.Congestion
	c.WindowNs = []uint64{1, 1000, 10_000_000}[r.IntN(3)]
	c.LowBelow = uint32(r.IntN(3))
	c.HighAbove = c.LowBelow + uint32(r.IntN(4))
	c.ReduceBps, c.IncreaseBps = uint32(r.IntN(10_001)), uint32(r.IntN(30_000))
	c.MinMaxCalls = uint32(1 + r.IntN(3))
	c.MaxMaxCalls = c.MinMaxCalls + uint32(r.IntN(10))
	if r.IntN(8) == 0 {
		c.IncreaseBps, c.MaxMaxCalls = math.MaxUint32, math.MaxUint32
	}
	return cfg
}

// The throttle model answers like the reference, call for call, on
// generated configs and calls of every kind (Status compared whole).
func TestThrottleModelAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	errs := throttleErrs{throttle.ErrPaused, throttle.ErrDegradedLimit, throttle.ErrRateLimited}
	seen := map[string]bool{}
	for run := 0; run < 1000; run++ {
		cfg := randomThrottleConfig(r)
		start := r.Uint64N(1_000_000)
		ref, err := throttle.New(cfg, start)
		if err != nil {
			t.Fatalf("reference New(%+v): %v", cfg, err)
		}
		m := NewThrottleModel(cfg, start)
		for i, now := range randomTimes(r, start, 60) {
			addr := uint64(r.IntN(3))
			var got, want string
			switch r.IntN(12) {
			case 0:
				s := operator.State(r.IntN(3))
				m.SetState(s, now)
				ref.SetState(s, now)
			case 1:
				rl := operator.RateLimit{MaxCalls: uint32(r.IntN(3)), WindowNs: uint64(r.IntN(200))}
				got, want = errText(m.SetIssuerLimit(addr, rl)), errText(ref.SetIssuerLimit(addr, rl))
			case 2:
				m.ClearIssuerLimit(addr)
				ref.ClearIssuerLimit(addr)
			case 3:
				on := r.IntN(2) == 0
				m.SetWhitelisted(addr, on)
				ref.SetWhitelisted(addr, on)
			case 4, 5:
				got, want = enumText(throttleLevels, uint8(m.AdjustCongestion(now)), "Level"), enumText(throttleLevels, uint8(ref.AdjustCongestion(now)), "Level")
			case 6:
				got, want = statusText(m.Status(now), cfg.Congestion), statusText(ref.Status(now), cfg.Congestion)
			default:
				got, want = errs.writeText(m.Write(addr, now)), errs.writeText(ref.Write(addr, now))
			}
			if got != want {
				t.Fatalf("run %d step %d: model %s, reference %s (cfg %+v)", run, i, got, want, cfg)
			}
			seen[want] = true
		}
	}
	for _, a := range []string{"nil", "ErrPaused", "ErrDegradedLimit", "ErrRateLimited", "Low", "NormalLoad", "High", "an error"} {
		if !seen[a] {
			t.Errorf("no call answered %s: the scripts miss a case", a)
		}
	}
}
