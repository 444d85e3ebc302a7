package throttle

import (
	"errors"
	"fmt"

	"ratelab/grader/check"
	"ratelab/grader/report"
)

// State, Level, BreakerConfig, RateLimit, CongestionConfig, Config and
// Status mirror the exercise's types field by field: values travel between
// the grader and the child by their exported fields (see grader/wire).
type State uint8

const (
	Normal State = iota
	Degraded
	Paused
)

type Level uint8

const (
	Low Level = iota
	NormalLoad
	High
)

type BreakerConfig struct {
	TTLNs              uint64
	DegradedWriteLimit uint32
	AutoRecover        bool
}

type RateLimit struct {
	MaxCalls uint32
	WindowNs uint64
}

type CongestionConfig struct {
	WindowNs                 uint64
	LowBelow, HighAbove      uint32
	ReduceBps, IncreaseBps   uint32
	MinMaxCalls, MaxMaxCalls uint32
}

type Config struct {
	Breaker    BreakerConfig
	Rate       RateLimit
	Congestion CongestionConfig
}

type Status struct {
	State                              State
	RecoverAtNs                        uint64
	DegradedWriteLimit, DegradedWrites uint32
	MaxCalls                           uint32
	WindowNs                           uint64
	Level                              Level
	Congestion                         CongestionConfig
}

// Refusal is Write's error as the child classifies it (see Classify).
type Refusal uint8

const (
	Accepted        Refusal = iota // nil
	ByPause                        // errors.Is(err, ErrPaused)
	ByDegradedLimit                // errors.Is(err, ErrDegradedLimit)
	ByRateLimit                    // errors.Is(err, ErrRateLimited)
	ByOther                        // any other error, or one that is several of them: Text says
)

// WriteResult is Write's answer as it travels: its error classified, and
// the error's text when it is none of the three (or several).
type WriteResult struct {
	Refusal Refusal
	Text    string
}

// Classify is called in the grading child, by the exercise's adapter, on
// Write's error and the package's own three errors: errors.Is needs the
// identity of the package's values, which cannot travel.
func Classify(err, paused, degraded, rated error) WriteResult {
	if err == nil {
		return WriteResult{Refusal: Accepted}
	}
	var match []Refusal
	for i, e := range []error{paused, degraded, rated} {
		if errors.Is(err, e) {
			match = append(match, Refusal(i+1))
		}
	}
	if len(match) == 1 {
		return WriteResult{Refusal: match[0]}
	}
	text := err.Error()
	if len(text) > 200 {
		text = text[:200] + "…"
	}
	if len(match) > 1 {
		text = fmt.Sprintf("%s (errors.Is matches several of ErrPaused, ErrDegradedLimit, ErrRateLimited: they must be distinct)", text)
	}
	return WriteResult{Refusal: ByOther, Text: text}
}

// Gate is the gate API every implementation offers.
type Gate interface {
	SetState(s State, nowNs uint64)
	SetIssuerLimit(addr uint64, rl RateLimit) error
	ClearIssuerLimit(addr uint64)
	SetWhitelisted(addr uint64, on bool)
	Write(addr, nowNs uint64) WriteResult
	AdjustCongestion(nowNs uint64) Level
	Status(nowNs uint64) Status
}

// Impl is an implementation's package functions, adapted to the mirrors.
type Impl struct {
	New func(cfg Config, nowNs uint64) (Gate, error)
}

// Suite returns the checks of the implementation r serves; a nil r only
// lists them.
func Suite(r check.Remote) check.Suite {
	impl := Remote(r)
	prop := func(d domain, why string) func(int64) check.Outcome { return d.property(impl).Runs(why) }
	return check.Suite{
		Exercise:   "throttle",
		NotStarted: func() bool { return notStarted(impl) },
		Checks: []check.Check{
			{
				ID: "throttle/recover-first", Title: "Recovers automatically at RecoverAtNs, before anything else", Kind: report.Property, Pitfall: "recover-first", Points: 4,
				Hint: "Begin every call that takes a time with the same step: move the clock, then, if a period is pending and now >= RecoverAtNs, end it exactly as SetState(Normal) would. At RecoverAtNs itself the period is over.",
				Run:  prop(recoverDomain, "With AutoRecover, a Degraded or Paused period is over once now >= RecoverAtNs (at RecoverAtNs itself too), before the call looks at the state: made explicit, with SetState(Normal) at RecoverAtNs, the same calls are answered right."),
			},
			{
				ID: "throttle/pause-all", Title: "Paused refuses everyone, whitelisted addresses too", Kind: report.Property, Pitfall: "pause-all", Points: 3,
				Hint: "The pause is the first check of Write, before anything about the address: no whitelist, override or window is looked at while Paused.",
				Run:  prop(pauseDomain, "The gate is Paused, and this write was let through: a pause refuses every write with ErrPaused, whitelisted addresses included."),
			},
			{
				ID: "throttle/whitelist-scope", Title: "The whitelist skips the rate limit, and nothing else", Kind: report.Property, Pitfall: "whitelist-scope", Points: 3,
				Hint: "Whitelisting only skips the comparison with the address's limit. The degraded cap still applies to it, and its accepted writes are recorded like any other: in its window (they count once it leaves the list), for congestion, and in the degraded period.",
				Run:  prop(whitelistDomain, "An address on the whitelist skips the rate limit and nothing else: the degraded cap refuses it too, and its accepted writes count in its window (against it once it leaves the list), for congestion and in the degraded period."),
			},
			{
				ID: "throttle/override", Title: "An override wins over the global limit, and congestion never moves it", Kind: report.Property, Pitfall: "override", Points: 3,
				Hint: "An address with an override is judged by its override alone, higher or lower than the global limit, over its own window; AdjustCongestion moves only the global MaxCalls. Setting or clearing an override starts the address's window afresh.",
				Run:  prop(overrideDomain, "Without its SetIssuerLimit and ClearIssuerLimit calls the same script is answered right, so the overrides are handled wrong: an override wins over the global limit both ways, congestion never moves it, and setting or clearing one starts the address's window afresh."),
			},
			{
				ID: "throttle/rate-window", Title: "The per-address sliding window: the limit, its edges, early times, history kept", Kind: report.Property, Pitfall: "rate-window", Points: 4,
				Hint: "Keep each address's accepted writes (times, or times with counts) and count those in (now-WindowNs, now]: a write exactly WindowNs old has left; compare now-t < WindowNs rather than t > now-WindowNs, which wraps early on. Refused writes are not recorded. A new global MaxCalls changes the limit, never the history.",
				Run:  prop(rateDomain, "A write is refused iff its address already has MaxCalls accepted writes in (now-WindowNs, now]: a write exactly WindowNs old has left the window, refused writes are not in it, and a change of the global MaxCalls keeps every address's history (a lowered limit refuses until the window has room)."),
			},
			{
				ID: "throttle/congestion-not-a-gate", Title: "Congestion never refuses a write", Kind: report.Property, Pitfall: "congestion-not-a-gate", Points: 3,
				Hint: "Write never looks at the congestion level or the congestion window's count: congestion acts only through the global MaxCalls that AdjustCongestion sets.",
				Run:  prop(gateDomain, "This write was refused because of congestion: with thresholds that never reach High, the same calls are answered right. Congestion refuses nothing by itself; it only moves the global MaxCalls, at AdjustCongestion."),
			},
			{
				ID: "throttle/congestion-step", Title: "Moves the global limit by basis points on a level change, rounded down and clamped", Kind: report.Property, Pitfall: "congestion-step", Points: 4,
				Hint: "Move MaxCalls only when the level changes: to High, max - max*ReduceBps/10000; to Low, max + max*IncreaseBps/10000 (from any level, High straight to Low too); NormalLoad moves nothing. Compute in uint64 (max*bps passes 2^32), round down, clamp into [MinMaxCalls, MaxMaxCalls], then narrow.",
				Run:  prop(stepDomain, "Status shows the global MaxCalls congestion set, and it is wrong while everything else is right: it moves only when the level changes (to High down by ReduceBps, to Low up by IncreaseBps, in 64-bit integers rounded down), then is clamped into [MinMaxCalls, MaxMaxCalls]."),
			},
			{
				ID: "throttle/degraded-period", Title: "Counts degraded writes per period", Kind: report.Property, Pitfall: "degraded-period", Points: 3,
				Hint: "DegradedWrites belongs to the period: SetState(Degraded) starts a new one at 0 even when already Degraded, SetState(Normal) and Paused end it. Only accepted writes count, and the cap refuses once DegradedWrites >= DegradedWriteLimit.",
				Run:  prop(degradedDomain, "Degraded allows DegradedWriteLimit writes per period: each SetState(Degraded) starts a new period counting from 0 (even from Degraded), and only accepted writes count."),
			},
			{
				ID: "throttle/precedence", Title: "Answers with the first refusal's error", Kind: report.Property, Pitfall: "precedence", Points: 3,
				Hint: "Check in the order of the contract and stop at the first refusal: Paused, then the degraded cap, then the address's rate limit.",
				Run:  prop(precedenceDomain, "Several throttles refuse this write at once, and the error is not the first one's: ErrPaused before ErrDegradedLimit before ErrRateLimited."),
			},
			{
				ID: "throttle/status", Title: "Status is the whole picture, after automatic recovery", Kind: report.Property, Pitfall: "status", Points: 3,
				Hint: "Status is a call like the others: move the clock and apply automatic recovery first, then report the state, RecoverAtNs, the degraded cap and count, the global MaxCalls and WindowNs, the level and the congestion config.",
				Run:  prop(statusDomain, "Status must report the state after automatic recovery at now, RecoverAtNs (0 when none is pending), the degraded limit and this period's writes, the global MaxCalls and WindowNs, the level as AdjustCongestion last set it, and the congestion config."),
			},
			{
				ID: "throttle/backward-time", Title: "Ignores a clock that steps back", Kind: report.Property, Pitfall: "backward-time", Points: 2,
				Hint: "Keep one clock for the gate: now = max(nowNs, latest time seen) before anything else. Windows are counted back from that clock, and now-t must never wrap.",
				Run:  prop(backwardDomain, "The clock stepped back in this sequence, and made at the latest time instead, the same calls are answered right. An earlier time counts as the latest one."),
			},
			{
				ID: "throttle/config-validation", Title: "New and SetIssuerLimit name the bad field", Kind: report.Case, Pitfall: "exactness", Points: 1,
				Hint: "Check every rule of the contract and put the field's dotted path in the error (e.g. Congestion.WindowNs: 0 is an empty window), so that an operator knows what to fix.",
				Run:  func(int64) check.Outcome { return validation(impl) },
			},
			{
				ID: "throttle/exactness", Title: "Agrees with the exact model on every call", Kind: report.Property, Pitfall: "exactness", Points: 2,
				Hint: "Replay the counterexample by hand with the contract: recover first, then Paused, the degraded cap, the address's limit; congestion only at AdjustCongestion.",
				Run:  prop(exactDomain, "The gate must answer every call as the contract does."),
			},
			{
				ID: "throttle/budget", Title: "Write within 100 ns among 1,000 addresses, without allocating", Kind: report.Benchmark, Pitfall: "budget", Points: 2,
				Hint: "One map lookup per write, and windows that forget old writes as they go (a ring of times that grows when full and is reused): no allocation once the traffic is steady, no scan of every address or of every write ever made.",
				Run:  func(int64) check.Outcome { return benchmark(r) },
			},
		},
	}
}

// notStarted reports whether impl is the untouched stub.
func notStarted(impl Impl) bool {
	cfg := Config{Rate: RateLimit{1, 1}, Congestion: CongestionConfig{WindowNs: 1, MinMaxCalls: 1, MaxMaxCalls: 1}}
	g, p := check.Call(func() Gate { g, _ := impl.New(cfg, 0); return g })
	if p != nil || g == nil {
		return p.Stub()
	}
	_, p1 := check.Call(func() WriteResult { return g.Write(1, 0) })
	_, p2 := check.Call(func() Status { return g.Status(0) })
	_, p3 := check.Call(func() Level { return g.AdjustCongestion(0) })
	_, p4 := check.Call(func() bool { g.SetState(Degraded, 0); return true })
	return p1.Stub() && p2.Stub() && p3.Stub() && p4.Stub()
}
