package throttle

import (
	"fmt"
	"strings"

	"ratelab/grader/check"
)

// mistakes are those learners make with the gate, each a switch of the
// model (see check.Mistake and grader/model's Throttle).
//
// Where one script can show two mistakes of different pitfalls, the
// narrower comes first: the grader charges, among equally small sets of
// mistakes, the one whose mistakes come first here.
var mistakes = check.Mistakes(mistaken, []check.Mistake[Impl]{
	// recover-first: at RecoverAtNs itself the period is over, before the
	// call looks at the state, as if SetState(Normal) had been called.
	{Name: "recovers-after", Pitfall: "recover-first", Says: "ends a period automatically only once now > RecoverAtNs, one nanosecond late, instead of at RecoverAtNs itself"},
	{Name: "write-no-recovery", Pitfall: "recover-first", Says: "moves the clock at Write but applies no automatic recovery there: a period that has ended still refuses writes until another call ends it"},
	{Name: "recovers-without-autorecover", Pitfall: "recover-first", Says: "ends a period at the next call even without AutoRecover, reading its RecoverAtNs of 0 as a time that has come"},
	{Name: "recovery-keeps-count", Pitfall: "recover-first", Says: "keeps DegradedWrites when a period ends automatically, where SetState(Normal) would set it to 0"},
	{Name: "recovery-keeps-recover-at", Pitfall: "recover-first", Says: "keeps the old RecoverAtNs when a period ends automatically, where SetState(Normal) would set it to 0"},

	// whitelist-scope: the whitelist skips the rate limit and nothing else.
	{Name: "whitelist-skips-degraded-cap", Pitfall: "whitelist-scope", Says: "lets a whitelisted address past the degraded cap"},
	{Name: "whitelist-uncounted", Pitfall: "whitelist-scope", Says: "does not record a whitelisted address's accepted writes in its window, so they do not count against it once it leaves the whitelist"},
	{Name: "whitelist-not-in-congestion", Pitfall: "whitelist-scope", Says: "leaves a whitelisted address's accepted writes out of the congestion window"},
	{Name: "whitelist-not-in-period", Pitfall: "whitelist-scope", Says: "leaves a whitelisted address's accepted writes out of the degraded period's count"},
	{Name: "whitelist-uncounted-everywhere", Pitfall: "whitelist-scope", Says: "counts a whitelisted address's accepted writes nowhere: not in its window, not for congestion, not in the degraded period"},
	{Name: "whitelist-forgets-window", Pitfall: "whitelist-scope", Says: "starts an address's window afresh at SetWhitelisted, forgetting the writes it holds"},

	// pause-all: Paused refuses everyone, whitelisted addresses too.
	{Name: "whitelist-skips-pause", Pitfall: "pause-all", Says: "lets a whitelisted address write while Paused"},
	{Name: "whitelist-skips-breaker", Pitfall: "pause-all", Says: "accepts every write of a whitelisted address before looking at the breaker: neither the pause nor the degraded cap refuses it"},

	// override: it wins over the global limit both ways, over its own
	// window; congestion never moves it; setting or clearing one starts
	// the address's window afresh.
	{Name: "override-as-cap", Pitfall: "override", Says: "lets an override only lower the limit: an address with one gets the smaller of its override's MaxCalls and the global MaxCalls"},
	{Name: "override-global-window", Pitfall: "override", Says: "counts an override's MaxCalls over the global WindowNs instead of the override's own"},
	{Name: "override-moved-by-congestion", Pitfall: "override", Says: "moves every override's MaxCalls along with the global one when the congestion level changes"},
	{Name: "override-keeps-history", Pitfall: "override", Says: "keeps an address's window when its override is set or cleared, instead of starting it afresh"},
	{Name: "clear-without-override-keeps-history", Pitfall: "override", Says: "does nothing at ClearIssuerLimit on an address without an override, where the window must start afresh all the same"},
	{Name: "failed-limit-resets-window", Pitfall: "override", Says: "starts the address's window afresh at SetIssuerLimit before it finds the 0 field it refuses: the failed call changes the address"},
	{Name: "clear-keeps-history", Pitfall: "override", Says: "keeps an address's window when ClearIssuerLimit clears its override, instead of starting it afresh"},

	// exactness, before the mistakes of rate-window that also break the
	// congestion window: the congestion window alone, and the levels.
	{Name: "congestion-window-edge", Pitfall: "exactness", Says: "counts, in the congestion window, a write exactly Congestion.WindowNs old as still in it"},
	{Name: "congestion-counts-every-write", Pitfall: "exactness", Says: "counts every write for congestion, refused ones too"},
	{Name: "low-inclusive", Pitfall: "exactness", Says: "takes a load equal to LowBelow as Low (n <= LowBelow instead of n < LowBelow)"},
	{Name: "high-inclusive", Pitfall: "exactness", Says: "takes a load equal to HighAbove as High (n >= HighAbove instead of n > HighAbove)"},
	{Name: "ttl-wraps", Pitfall: "exactness", Says: "computes RecoverAtNs = now+TTLNs in 64 bits, which wraps instead of saturating at MaxUint64"},

	// rate-window: refused when the address already has its limit of
	// accepted writes in (now-WindowNs, now].
	{Name: "window-keeps-edge", Pitfall: "rate-window", Says: "counts, in an address's window, a write exactly WindowNs old as still in it"},
	{Name: "windows-keep-edge", Pitfall: "rate-window", Says: "counts a write exactly WindowNs old as still in its window, in an address's window and in the congestion window alike (one helper for both)"},
	{Name: "limit-off-by-one", Pitfall: "rate-window", Says: "refuses only when the address already has more than MaxCalls writes in its window, letting one too many through"},
	{Name: "counts-refused", Pitfall: "rate-window", Says: "records a write the rate limit refused in its address's window"},
	{Name: "counts-every-refused", Pitfall: "rate-window", Says: "records every write in its address's window, whatever refused it"},
	{Name: "wrapping-window-start", Pitfall: "rate-window", Says: "counts the writes after now-WindowNs computed in 64 bits, which wraps early on (now < WindowNs), so that no write counts then"},
	{Name: "wrapping-window-forgets", Pitfall: "rate-window", Says: "forgets, as it counts, the writes at or before now-WindowNs computed in 64 bits, which wraps early on (now < WindowNs), so that every write is forgotten then"},
	{Name: "window-start-clamped", Pitfall: "rate-window", Says: "counts the writes after max(0, now-WindowNs), so that early on a write at time 0 does not count"},
	{Name: "fixed-window", Pitfall: "rate-window", Says: "counts writes in fixed windows of WindowNs, each starting at a write that finds none going on, instead of a sliding window"},
	{Name: "global-change-resets-history", Pitfall: "rate-window", Says: "forgets the windows of the addresses under the global limit whenever congestion moves it"},

	// congestion-not-a-gate: congestion never refuses a write.
	{Name: "high-refuses", Pitfall: "congestion-not-a-gate", Says: "refuses every write with ErrRateLimited while the level is High, after the breaker"},
	{Name: "high-refuses-unlisted", Pitfall: "congestion-not-a-gate", Says: "refuses the writes of addresses that are not whitelisted with ErrRateLimited while the level is High"},
	{Name: "congestion-count-refuses", Pitfall: "congestion-not-a-gate", Says: "refuses a write with ErrRateLimited when the congestion window already holds more than HighAbove writes"},

	// congestion-step: only on a level change, in 64-bit integers rounded
	// down, then clamped.
	{Name: "moves-without-change", Pitfall: "congestion-step", Says: "moves and clamps the global MaxCalls at every AdjustCongestion, whether the level changed or not (High reduces it, Low raises it, NormalLoad only clamps it)"},
	{Name: "moves-only-from-normal", Pitfall: "congestion-step", Says: "moves the global MaxCalls only on a change from NormalLoad, never straight from High to Low or back"},
	{Name: "steps-by-direction", Pitfall: "congestion-step", Says: "reduces the global MaxCalls on every change to a higher level and raises it on every change to a lower one, NormalLoad included"},
	{Name: "step-in-32-bits", Pitfall: "congestion-step", Says: "computes max*bps/10000 and the new MaxCalls in 32 bits, which wrap before the clamp"},
	{Name: "narrows-before-clamp", Pitfall: "congestion-step", Says: "computes the step in 64 bits but narrows the new MaxCalls to 32 bits, which wraps, before the clamp"},
	{Name: "no-clamp", Pitfall: "congestion-step", Says: "never clamps the global MaxCalls into [MinMaxCalls, MaxMaxCalls]"},
	{Name: "reduce-rounds-result", Pitfall: "congestion-step", Says: "reduces to max*(10000-ReduceBps)/10000, rounding the result down instead of the step"},
	{Name: "clamps-at-start", Pitfall: "congestion-step", Says: "clamps the global MaxCalls into [MinMaxCalls, MaxMaxCalls] at New, before its first change"},

	// degraded-period: each SetState(Degraded) starts a new period counting
	// from 0; only accepted writes count; the cap refuses once
	// DegradedWrites >= DegradedWriteLimit.
	{Name: "period-not-reset", Pitfall: "degraded-period", Says: "keeps DegradedWrites at SetState(Degraded) when already Degraded, instead of starting the new period at 0"},
	{Name: "same-state-keeps-period", Pitfall: "degraded-period", Says: "ignores SetState to the state the gate is already in, keeping the period's count and RecoverAtNs"},
	{Name: "only-degraded-resets-count", Pitfall: "degraded-period", Says: "sets DegradedWrites to 0 only at SetState(Degraded), not when SetState(Normal) or SetState(Paused) ends the period"},
	{Name: "degraded-cap-off-by-one", Pitfall: "degraded-period", Says: "refuses only once DegradedWrites > DegradedWriteLimit, letting one write too many through"},
	{Name: "degraded-counts-refused", Pitfall: "degraded-period", Says: "counts a write the rate limit refused toward the degraded period"},
	{Name: "degraded-counts-always", Pitfall: "degraded-period", Says: "counts accepted writes toward DegradedWrites in every state, not only while Degraded"},

	// precedence: ErrPaused, then ErrDegradedLimit, then ErrRateLimited.
	{Name: "rate-first", Pitfall: "precedence", Says: "checks the rate limit before the breaker"},
	{Name: "rate-before-degraded", Pitfall: "precedence", Says: "checks the rate limit after the pause but before the degraded cap"},

	// status: the whole picture after automatic recovery.
	{Name: "status-no-recovery", Pitfall: "status", Says: "moves the clock at Status but applies no automatic recovery there"},
	{Name: "status-no-clock", Pitfall: "status", Says: "neither moves the clock nor applies automatic recovery at Status"},
	{Name: "status-live-level", Pitfall: "status", Says: "reports in Status the level the congestion window says now, instead of the one the last AdjustCongestion set"},
	{Name: "status-reports-configured-max", Pitfall: "status", Says: "reports Rate.MaxCalls in Status, instead of the global MaxCalls as congestion last set it"},

	// backward-time: a nowNs at or before the latest time seen counts as it.
	{Name: "rewinds-clock", Pitfall: "backward-time", Says: "takes an earlier nowNs as the time, moving its clock back (writes later than it still count in the windows)"},
	{Name: "rewinds-clock-wraps", Pitfall: "backward-time", Says: "takes an earlier nowNs as the time, moving its clock back, and counts windows with now-t, which wraps for writes later than it, so that they leave the windows"},
	{Name: "rewinds-clock-forgets", Pitfall: "backward-time", Says: "takes an earlier nowNs as the time, moving its clock back, and forgets from its windows, oldest first, the writes with now-t >= WindowNs, which wraps for writes later than now: they are forgotten for good"},
	{Name: "setstate-own-clock", Pitfall: "backward-time", Says: "neither reads nor moves the gate's clock at SetState: an earlier nowNs starts a period (and its RecoverAtNs) earlier"},
})

// mistaken returns the exercise's API for the model that makes the named
// mistake: New refuses what the contract refuses, naming the field.
func mistaken(mistake string) Impl {
	return Impl{New: func(cfg Config, nowNs uint64) (Gate, error) {
		if ps := problems(cfg); len(ps) > 0 {
			return nil, fmt.Errorf("the model refuses %s", strings.Join(ps[0].fields, " or "))
		}
		return modelGate{newMistaken(cfg, nowNs, mistake)}, nil
	}}
}
