package gcra

import (
	"fmt"
	"math/big"

	"ratelab/grader/check"
)

// mistakes are those learners make with a GCRA (see check.Mistake). They
// are listed pitfall by pitfall, exactness last, so that where a mistake
// of a named pitfall and one of exactness answer alike, the named one is
// charged.
var mistakes = check.Mistakes(mistaken, []check.Mistake[New]{
	// rounding: one interval is 10^9/ratePerSec ns, exactly.
	{Name: "whole-ns-down", Pitfall: "rounding", Says: "keeps the schedule in whole nanoseconds with one interval T = 10^9/ratePerSec rounded down, so that at rates that do not divide 10^9 it lets calls in a little early, more so with every call"},
	{Name: "whole-ns-up", Pitfall: "rounding", Says: "keeps the schedule in whole nanoseconds with one interval T = 10^9/ratePerSec rounded up, so that at rates that do not divide 10^9 it turns calls away a little late"},
	{Name: "whole-ns-nearest", Pitfall: "rounding", Says: "keeps the schedule in whole nanoseconds with one interval T = 10^9/ratePerSec rounded to the nearest nanosecond"},
	{Name: "whole-ns-tau", Pitfall: "rounding", Says: "keeps the schedule in whole nanoseconds, with T = 10^9/ratePerSec and tau = (burst−1)×10^9/ratePerSec each rounded down"},
	// backward-time: an earlier nowNs counts as the latest time seen.
	{Name: "trusts-earlier-now", Pitfall: "backward-time", Says: "measures TAT−now from a time earlier than the latest one seen, as given, so that a step back makes the schedule look further ahead and refuses calls the bucket grants"},
	{Name: "rewinds-clock", Pitfall: "backward-time", Says: "keeps the schedule relative to the latest time and moves that time back to an earlier nowNs, so that the time after the step back is earned a second time"},
	{Name: "wrapping-elapsed", Pitfall: "backward-time", Says: "takes now−latest without checking which is later, so that a step back wraps around to a huge idle time (the schedule is forgotten: a full burst) and rewinds its clock"},
	// overflow: no sum or product leaves 64 bits.
	{Name: "wrapping-tat", Pitfall: "overflow", Says: "keeps TAT as an absolute time in nanoseconds, so that next to MaxUint64 TAT+T wraps around to a small time and the schedule is lost"},
	{Name: "wrapping-ticks", Pitfall: "overflow", Says: "keeps TAT and now as absolute times in ticks of 1/ratePerSec ns in 64 bits, so that nowNs×ratePerSec and TAT+T wrap around"},
	{Name: "wrapping-credit", Pitfall: "overflow", Says: "keeps the schedule relative to the latest time and computes the idle time × ratePerSec in 64 bits, so that after a long idle the product wraps around to a small credit"},
	{Name: "wrapping-deadline", Pitfall: "overflow", Says: "keeps TAT as an absolute time in nanoseconds and refuses a call when TAT > now+tau, a sum that wraps around to a small time next to MaxUint64"},
	// exactness: the rest of the contract.
	{Name: "burst-plus-one", Pitfall: "exactness", Says: "takes burst×T as the burst tolerance instead of (burst−1)×T, so that it grants one call more than burst at once"},
	{Name: "strict-tolerance", Pitfall: "exactness", Says: "conforms only when TAT−now < tau instead of ≤ tau, so that a call on the very nanosecond it is due is refused"},
	{Name: "strict-tolerance-floored", Pitfall: "exactness", Says: "conforms only when the schedule is less than tau ahead of now, a schedule already past counting as 0 ahead, so that a call on the very nanosecond it is due is refused and with burst 1 no call conforms"},
	{Name: "starts-one-interval-ahead", Pitfall: "exactness", Says: "starts its TAT one interval after nowNs instead of at nowNs, so that a new GCRA grants burst−1 calls at once"},
	{Name: "starts-empty", Pitfall: "exactness", Says: "starts its TAT a whole burst (burst×T) after nowNs, like a token bucket that starts empty"},
	{Name: "tat-not-maxed", Pitfall: "exactness", Says: "moves a conforming call's TAT to TAT+T instead of max(TAT, now)+T, so that idle time is banked without limit and a burst longer than burst follows"},
	{Name: "refused-moves-tat", Pitfall: "exactness", Says: "moves TAT to max(TAT, now)+T on a refused call too, so that a client that keeps asking too early is refused for ever"},
	{Name: "unsigned-ahead", Pitfall: "exactness", Says: "computes TAT−now in unsigned arithmetic before taking max(TAT, now), so that a call that comes after its schedule wraps around to a huge difference and is refused"},
})

// mistaken returns New for the model with the named mistake. Like the
// contract's New, it panics naming an argument out of range.
func mistaken(mistake string) New {
	return func(rate, burst, now uint64) Limiter {
		if rate < 1 || rate > second {
			panic(fmt.Sprintf("gcra: ratePerSec must be in [1, 1e9], got %d", rate))
		}
		if burst < 1 || burst > 1_000_000 {
			panic(fmt.Sprintf("gcra: burst must be in [1, 1e6], got %d", burst))
		}
		return newSchedule(mistake, rate, burst, now)
	}
}

// schedule is the contract's GCRA written as a schedule in ticks of
// 1/ratePerSec ns, where one interval T is exactly 10^9 ticks and nowNs is
// nowNs×ratePerSec ticks, exact in math/big, with a switch for each
// mistake. It decides as model.Bucket(burst, rate) taking one token: TAT−now
// is what the bucket misses to full, in ticks.
type schedule struct {
	mistake string
	rate    uint64
	t, tau  *big.Int // one interval, and the burst tolerance (burst−1)×T, in ticks
	tat     *big.Int // the theoretical arrival time, in ticks
	latest  uint64   // the latest time seen, in ns
}

var (
	wrap64 = new(big.Int).Lsh(big.NewInt(1), 64) // 2^64
	bigSec = big.NewInt(second)
)

func num(x uint64) *big.Int { return new(big.Int).SetUint64(x) }

// ticks is ns nanoseconds in ticks: ns×rate.
func (g *schedule) ticks(ns uint64) *big.Int { return new(big.Int).Mul(num(ns), num(g.rate)) }

// wholeNs is 10^9×k/rate ns rounded as the mistake rounds it, in ticks.
func (g *schedule) wholeNs(k uint64, round string) *big.Int {
	q, r := new(big.Int).QuoRem(new(big.Int).Mul(num(k), bigSec), num(g.rate), new(big.Int))
	switch {
	case round == "up" && r.Sign() > 0:
		q.Add(q, big.NewInt(1))
	case round == "nearest" && new(big.Int).Lsh(r, 1).Cmp(num(g.rate)) >= 0:
		q.Add(q, big.NewInt(1))
	}
	return q.Mul(q, num(g.rate))
}

func newSchedule(mistake string, rate, burst, now uint64) *schedule {
	g := &schedule{mistake: mistake, rate: rate, latest: now}
	g.t = big.NewInt(second)
	switch mistake {
	case "whole-ns-down", "whole-ns-tau":
		g.t = g.wholeNs(1, "down")
	case "whole-ns-up":
		g.t = g.wholeNs(1, "up")
	case "whole-ns-nearest":
		g.t = g.wholeNs(1, "nearest")
	}
	g.tau = new(big.Int).Mul(num(burst-1), g.t)
	switch mistake {
	case "whole-ns-tau":
		g.tau = g.wholeNs(burst-1, "down")
	case "burst-plus-one":
		g.tau.Add(g.tau, g.t)
	}
	g.tat = g.ticks(now)
	switch mistake {
	case "starts-one-interval-ahead":
		g.tat.Add(g.tat, g.t)
	case "starts-empty":
		g.tat.Add(g.tat, new(big.Int).Mul(num(burst), g.t))
	case "wrapping-ticks":
		g.tat.Mod(g.tat, wrap64)
	}
	return g
}

// ahead is the schedule relative to the latest time, TAT−latest in ticks,
// at least 0: what a GCRA that keeps its schedule relative holds.
func (g *schedule) ahead() *big.Int {
	a := new(big.Int).Sub(g.tat, g.ticks(g.latest))
	if a.Sign() < 0 {
		a.SetInt64(0)
	}
	return a
}

// rebase sets the latest time to now, keeping the schedule a ahead of it.
func (g *schedule) rebase(now uint64, a *big.Int) {
	g.latest = now
	g.tat = a.Add(a, g.ticks(now))
}

// clock takes in a call at nowNs and returns the time it is judged at, in
// ticks: the latest time seen, which nowNs moves forward and never back.
func (g *schedule) clock(nowNs uint64) *big.Int {
	switch g.mistake {
	case "trusts-earlier-now":
		return g.ticks(nowNs)
	case "rewinds-clock":
		if nowNs < g.latest {
			g.rebase(nowNs, g.ahead())
			return g.ticks(nowNs)
		}
	case "wrapping-elapsed":
		elapsed := nowNs - g.latest // wraps when nowNs is earlier
		g.rebase(nowNs, subFloor0(g.ahead(), new(big.Int).Mul(num(elapsed), num(g.rate))))
		return g.ticks(nowNs)
	case "wrapping-credit":
		now := max(nowNs, g.latest)
		credit := new(big.Int).Mul(num(now-g.latest), num(g.rate))
		g.rebase(now, subFloor0(g.ahead(), credit.Mod(credit, wrap64)))
		return g.ticks(now)
	case "wrapping-ticks":
		g.latest = max(nowNs, g.latest)
		return new(big.Int).Mod(g.ticks(g.latest), wrap64)
	}
	g.latest = max(nowNs, g.latest)
	return g.ticks(g.latest)
}

// subFloor0 is max(a−b, 0).
func subFloor0(a, b *big.Int) *big.Int {
	d := new(big.Int).Sub(a, b)
	if d.Sign() < 0 {
		d.SetInt64(0)
	}
	return d
}

func (g *schedule) TryAcquire(nowNs uint64) bool {
	now := g.clock(nowNs)
	diff := new(big.Int).Sub(g.tat, now) // TAT−now, signed
	var ok bool
	switch g.mistake {
	case "unsigned-ahead":
		if diff.Sign() < 0 {
			diff.Add(diff, wrap64)
		}
		ok = diff.Cmp(g.tau) <= 0
	case "strict-tolerance":
		ok = diff.Cmp(g.tau) < 0
	case "strict-tolerance-floored":
		ok = subFloor0(diff, new(big.Int)).Cmp(g.tau) < 0
	case "wrapping-deadline":
		// TAT > now+tau, in whole nanoseconds: the sum wraps at 2^64 ns.
		deadline := new(big.Int).Add(now, g.tau)
		ok = g.tat.Cmp(deadline.Mod(deadline, new(big.Int).Mul(wrap64, num(g.rate)))) <= 0
	default:
		ok = diff.Cmp(g.tau) <= 0
	}
	if !ok && g.mistake != "refused-moves-tat" {
		return false
	}
	if diff.Sign() < 0 && g.mistake != "tat-not-maxed" {
		g.tat.Set(now) // max(TAT, now)
	}
	g.tat.Add(g.tat, g.t)
	switch g.mistake {
	case "wrapping-ticks":
		g.tat.Mod(g.tat, wrap64)
	case "wrapping-tat", "wrapping-deadline":
		g.tat.Mod(g.tat, new(big.Int).Mul(wrap64, num(g.rate)))
	}
	return ok
}
