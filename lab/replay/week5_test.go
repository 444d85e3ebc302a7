package replay

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"ratelab/grader/report"
	"ratelab/lab/breaker"
	"ratelab/lab/throttle"
	refthrottle "ratelab/solutions/throttle"
)

func TestThrottleReplaysTheGrade(t *testing.T) {
	replayCaptured(t, "throttle", "counts-refused", Impls{Throttle: fixtureThrottle()})
}

// randomThrottleConfig draws a valid config: small windows and limits so
// that every refusal and every level comes up.
func randomThrottleConfig(r *rand.Rand) throttle.Config {
	var cfg throttle.Config
	cfg.Breaker.AutoRecover = r.IntN(2) == 0
	cfg.Breaker.TTLNs = []uint64{1, 50, 1_000_000, math.MaxUint64}[r.IntN(4)]
	cfg.Breaker.DegradedWriteLimit = uint32(r.IntN(4))
	cfg.Rate = throttle.RateLimit{MaxCalls: uint32(1 + r.IntN(4)), WindowNs: []uint64{1, 100, 10_000_000}[r.IntN(3)]}
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
	errs := throttleErrs{refthrottle.ErrPaused, refthrottle.ErrDegradedLimit, refthrottle.ErrRateLimited}
	seen := map[string]bool{}
	for run := 0; run < 1000; run++ {
		cfg := randomThrottleConfig(r)
		start := r.Uint64N(1_000_000)
		ref, err := refthrottle.New(cfg, start)
		if err != nil {
			t.Fatalf("reference New(%+v): %v", cfg, err)
		}
		m := NewThrottleModel(cfg, start)
		for i, now := range randomTimes(r, start, 60) {
			addr := uint64(r.IntN(3))
			var got, want string
			switch r.IntN(12) {
			case 0:
				s := throttle.State(r.IntN(3))
				m.SetState(s, now)
				ref.SetState(s, now)
			case 1:
				rl := throttle.RateLimit{MaxCalls: uint32(r.IntN(3)), WindowNs: uint64(r.IntN(200))}
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

func TestBreakerReplaysTheGrade(t *testing.T) {
	replayCaptured(t, "breaker", "no-generation", Impls{Breaker: fixtureBreaker()})
}

// The breaker model answers like the reference, call for call, each with
// its own tickets: Done reports a ticket "from step k" (an Allow both let
// through, not reported yet) or one "never issued", as the grader prints
// them.
func TestBreakerModelAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	seen := map[string]bool{}
	for run := 0; run < 2000; run++ {
		cfg := breaker.Config{FailureThreshold: uint32(1 + r.IntN(3)), OpenNs: []uint64{1, 100, 5_000_000, math.MaxUint64}[r.IntN(4)], HalfOpenProbes: uint32(1 + r.IntN(3))}
		start := r.Uint64N(1_000_000)
		b, err := breaker.Reference.New(cfg, start)
		if err != nil {
			t.Fatal(err)
		}
		ref, m := newBreakerCalls(b), NewBreakerModel(cfg, start)
		var open []int // steps whose tickets are not reported yet
		for i, now := range randomTimes(r, start, 40) {
			n := strconv.FormatUint(now, 10)
			var c report.Call
			switch k := r.IntN(10); {
			case k < 4:
				c = call("Allow", "nowNs", n)
			case k < 5:
				c = call("State", "nowNs", n)
			default:
				c = call("Done", "nowNs", n)
				c.Args["success"] = r.IntN(2) == 0
				if len(open) > 0 && r.IntN(5) > 0 {
					j := r.IntN(len(open))
					c.Args["ticket"] = "0 [from step " + strconv.Itoa(open[j]) + "]"
					open = slices.Delete(open, j, j+1)
				} else {
					c.Args["ticket"] = []string{"0", "1", "2"}[r.IntN(3)] + " [never issued]"
				}
			}
			got, err := m.Do(c)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ref.Do(c)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("run %d step %d: cfg %+v: model %s(%v) = %s, reference %s", run, i, cfg, c.Name, c.Args, got, want)
			}
			if c.Name == "Allow" && want == "true" {
				open = append(open, i+1)
			}
			seen[c.Name+" "+want] = true
		}
	}
	for _, a := range []string{"Allow true", "Allow false", "State Closed", "State Open", "State HalfOpen"} {
		if !seen[a] {
			t.Errorf("no %s: the scripts miss a case", a)
		}
	}
}

// The state beside the breaker's steps: the generation moves on at every
// change of state, and a report from an earlier one is left outstanding
// as stale.
func TestBreakerState(t *testing.T) {
	setup := call("New", "nowNs", "0")
	setup.Args["arg1"] = map[string]any{"FailureThreshold": "1", "OpenNs": "10", "HalfOpenProbes": "2"}
	cx := report.Counterexample{SetupCall: &setup, Steps: []report.Step{
		step("Allow(nowNs=0)", call("Allow", "nowNs", "0")),
		step("Allow(nowNs=0)", call("Allow", "nowNs", "0")),
		step("Done(ticket=1 [from step 1], success=false, nowNs=1)", call("Done", "ticket", "1 [from step 1]", "success", "false", "nowNs", "1")),
		step("Allow(nowNs=11)", call("Allow", "nowNs", "11")),
	}}
	res := Run("breaker", cx, Reference)
	if res.Error != "" {
		t.Fatal(res.Error)
	}
	if s := res.Steps[2].State; s[0].Text != "Open until t = 11 ns" || s[1].Text != "1; 0 tickets of it outstanding, 1 stale (ignored when reported)" {
		t.Errorf("after the failure: %+v", s)
	}
	if s := res.Steps[3].State; s[0].Text != "HalfOpen" || s[2].Text != "1 of 2 let through, 1 in flight, 0 succeeded" || res.Steps[3].Want != "true" {
		t.Errorf("after the probe: %+v, want %s", s, res.Steps[3].Want)
	}
}
