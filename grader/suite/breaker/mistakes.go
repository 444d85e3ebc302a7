package breaker

import (
	"errors"
	"math"

	"ratelab/grader/check"
)

// mistakes are those learners make with a circuit breaker (see
// check.Mistake).
var mistakes = check.Mistakes(mistaken, []check.Mistake[New]{
	// consecutive: failures in a row, in Closed; closing starts from 0.
	{Name: "counts-in-total", Pitfall: "consecutive", Says: "counts failures in total: a success reported in Closed leaves the count as it is"},
	{Name: "success-takes-one-off", Pitfall: "consecutive", Says: "takes one failure off the count at a success reported in Closed, instead of setting it back to 0"},
	{Name: "keeps-count-on-close", Pitfall: "consecutive", Says: "keeps the count of failures that opened it when its probes close it, instead of starting Closed again from 0"},
	{Name: "opens-one-late", Pitfall: "consecutive", Says: "opens only when the count of failures goes past FailureThreshold, not when it reaches it"},
	// open-timeout: Open until openedAt+OpenNs exactly, never past MaxUint64.
	{Name: "strict-end", Pitfall: "open-timeout", Says: "ends the open period only after openedAt+OpenNs (>), not at it (>=)"},
	{Name: "wrapping-end", Pitfall: "open-timeout", Says: "computes openedAt+OpenNs in 64 bits, which wraps, so an open period that should never end ends at once"},
	{Name: "saturating-end", Pitfall: "open-timeout", Says: "caps openedAt+OpenNs at MaxUint64, so an open period that should never end ends at MaxUint64"},
	{Name: "allow-refuses-at-timeout", Pitfall: "open-timeout", Says: "lets an Allow that comes once the open period is over half-open the breaker, but refuses that call all the same"},
	{Name: "state-ignores-time", Pitfall: "open-timeout", Says: "answers State with the state it holds, without looking at nowNs: only Allow and Done end an open period"},
	{Name: "refusal-restarts-open", Pitfall: "open-timeout", Says: "starts the open period again at every call Allow refuses while Open"},
	// half-open-probes: HalfOpenProbes calls, HalfOpenProbes successes, one failure.
	// Every call, or one too many (<= where < belongs): no script tells
	// them apart, the first wrong answer is the same call's.
	{Name: "too-many-probes", Pitfall: "half-open-probes", Says: "lets more than HalfOpenProbes calls through in a half-open period"},
	{Name: "probes-at-a-time", Pitfall: "half-open-probes", Says: "lets HalfOpenProbes calls through at a time: a probe that reported makes room for another"},
	{Name: "first-probe-uncounted", Pitfall: "half-open-probes", Says: "lets through, without counting it as a probe, the Allow that finds the open period over"},
	{Name: "probes-not-reset", Pitfall: "half-open-probes", Says: "never sets its count of probes let through back to 0, so a later half-open period lets fewer through"},
	{Name: "successes-not-reset", Pitfall: "half-open-probes", Says: "never sets its count of successful probes back to 0, so successes of an earlier half-open period help close a later one"},
	{Name: "one-success-closes", Pitfall: "half-open-probes", Says: "closes at the first successful probe, not at HalfOpenProbes of them"},
	{Name: "needs-one-more-success", Pitfall: "half-open-probes", Says: "closes only when successful probes go past HalfOpenProbes (>), which the probes it lets through never do"},
	{Name: "waits-for-every-probe", Pitfall: "half-open-probes", Says: "reopens at a failed probe only once all HalfOpenProbes probes have reported"},
	{Name: "half-open-needs-threshold", Pitfall: "half-open-probes", Says: "counts failed probes like failures in Closed, from 0, and reopens only when they reach FailureThreshold"},
	{Name: "reopen-keeps-timer", Pitfall: "half-open-probes", Says: "reopens at a failed probe without starting a new open period: the old one, long over, ends it again at the next call"},
	// generation: a ticket of an earlier generation, or never issued, is ignored.
	{Name: "ignores-generation", Pitfall: "generation", Says: "takes every ticket it issued as current, whatever the generation that issued it"},
	{Name: "stale-successes-count", Pitfall: "generation", Says: "ignores a failure of an earlier generation but takes a success of any generation as current"},
	{Name: "tickets-restart", Pitfall: "generation", Says: "numbers tickets from 1 again in each generation, so a late ticket looks like one of the current generation"},
	{Name: "accepts-unissued", Pitfall: "generation", Says: "takes a ticket above the last it issued as one of the current generation"},
	// backward-time: one clock; an earlier nowNs counts as the latest.
	{Name: "opens-at-call-time", Pitfall: "backward-time", Says: "starts an open period at the call's own nowNs, even when it is earlier than the latest time seen"},
	{Name: "rewinds-clock", Pitfall: "backward-time", Says: "sets its clock to every call's nowNs, earlier or not"},
	{Name: "wrapping-elapsed", Pitfall: "backward-time", Says: "compares nowNs-openedAt with OpenNs, using the call's own nowNs: an earlier one wraps to a huge time and ends the open period"},
	{Name: "ignores-start", Pitfall: "backward-time", Says: "starts its clock at 0 instead of New's nowNs"},
	{Name: "ignored-report-moves-no-clock", Pitfall: "backward-time", Says: "returns from Done on a stale ticket, or one never issued, before moving its clock"},
	// exactness: the rest of the contract.
	{Name: "done-ignores-time", Pitfall: "exactness", Says: "does not look at Done's nowNs: a failure reported opens the breaker at the time of the call before it"},
})

// mistaken returns New for the model with the named mistake. New's
// validation is the contract's: the mistakes are in the calls.
func mistaken(mistake string) New {
	return func(cfg Config, now uint64) (Breaker, error) {
		var errs []error
		if cfg.FailureThreshold == 0 {
			errs = append(errs, errors.New("FailureThreshold must be at least 1"))
		}
		if cfg.OpenNs == 0 {
			errs = append(errs, errors.New("OpenNs must be at least 1"))
		}
		if cfg.HalfOpenProbes == 0 {
			errs = append(errs, errors.New("HalfOpenProbes must be at least 1"))
		}
		if len(errs) > 0 {
			return nil, errors.Join(errs...)
		}
		b := &breaker{mistake: mistake, cfg: cfg, latest: now}
		if mistake == "ignores-start" {
			b.latest = 0
		}
		return b, nil
	}
}

// breaker is the contract's breaker (model.Breaker) written again with a switch
// for each mistake. Its tickets are numbered from 1 in the order Allow
// issues them; those of the generation in force are above genStart.
type breaker struct {
	mistake  string
	cfg      Config
	state    State
	latest   uint64 // the clock: the latest time seen
	now      uint64 // the call's own nowNs
	openedAt uint64
	failures uint32 // Closed: consecutive failures
	// HalfOpen: probes let through, successes reported, and, for the
	// mistakes that need them, probes out, probes reported and whether
	// one failed.
	probes, successes, out, reported uint32
	failed                           bool
	genStart, issued                 uint64
	genIssued                        uint64 // tickets-restart: tickets issued in this generation
}

func (b *breaker) is(m string) bool { return b.mistake == m }

// clock moves the clock to now if it is later.
func (b *breaker) clock(now uint64) {
	b.now = now
	if b.is("rewinds-clock") || now > b.latest {
		b.latest = now
	}
}

// over reports whether the open period in force is over.
func (b *breaker) over() bool {
	if b.is("wrapping-elapsed") {
		return b.now-b.openedAt >= b.cfg.OpenNs
	}
	end := b.openedAt + b.cfg.OpenNs // wraps if past MaxUint64
	if b.cfg.OpenNs > math.MaxUint64-b.openedAt {
		switch {
		case b.is("saturating-end"):
			end = math.MaxUint64
		case !b.is("wrapping-end"):
			return false // it never ends
		}
	}
	if b.is("strict-end") {
		return b.latest > end
	}
	return b.latest >= end
}

// advance moves the clock and ends an open period that is over.
func (b *breaker) advance(now uint64) {
	b.clock(now)
	if b.state == Open && b.over() {
		b.halfOpen()
	}
}

// newGeneration makes every ticket issued so far stale.
func (b *breaker) newGeneration() {
	b.genStart, b.genIssued = b.issued, 0
}

func (b *breaker) halfOpen() {
	b.state = HalfOpen
	b.newGeneration()
	if !b.is("probes-not-reset") {
		b.probes = 0
	}
	if !b.is("successes-not-reset") {
		b.successes = 0
	}
	b.out, b.reported, b.failed = 0, 0, false
}

func (b *breaker) open() {
	from := b.state
	b.state = Open
	b.newGeneration()
	switch {
	case b.is("opens-at-call-time"):
		b.openedAt = b.now
	case b.is("reopen-keeps-timer") && from == HalfOpen:
	default:
		b.openedAt = b.latest
	}
	if b.is("half-open-needs-threshold") {
		b.failures = 0
	}
}

func (b *breaker) close() {
	b.state = Closed
	b.newGeneration()
	if !b.is("keeps-count-on-close") {
		b.failures = 0
	}
}

// issue returns a new ticket.
func (b *breaker) issue() uint64 {
	b.issued++
	b.genIssued++
	if b.is("tickets-restart") {
		return b.genIssued
	}
	return b.issued
}

// current reports whether Done takes ticket as one of the generation in
// force.
func (b *breaker) current(ticket uint64, success bool) bool {
	switch {
	case b.is("ignores-generation"), b.is("stale-successes-count") && success:
		return ticket >= 1 && ticket <= b.issued
	case b.is("accepts-unissued"):
		return ticket > b.genStart
	case b.is("tickets-restart"):
		return ticket >= 1 && ticket <= b.genIssued
	}
	return ticket > b.genStart && ticket <= b.issued
}

// letsProbe reports whether Allow lets a call through in HalfOpen.
func (b *breaker) letsProbe() bool {
	switch {
	case b.is("too-many-probes"):
		return true
	case b.is("probes-at-a-time"):
		return b.out < b.cfg.HalfOpenProbes
	}
	return b.probes < b.cfg.HalfOpenProbes
}

func (b *breaker) Allow(now uint64) (uint64, bool) {
	prior := b.state
	b.advance(now)
	switch {
	case prior == Open && b.state == HalfOpen && b.is("allow-refuses-at-timeout"):
		return 0, false
	case prior == Open && b.state == HalfOpen && b.is("first-probe-uncounted"):
		return b.issue(), true
	}
	switch b.state {
	case Closed:
		return b.issue(), true
	case HalfOpen:
		if b.letsProbe() {
			b.probes++
			b.out++
			return b.issue(), true
		}
	case Open:
		if b.is("refusal-restarts-open") {
			b.openedAt = b.latest
		}
	}
	return 0, false
}

func (b *breaker) Done(ticket uint64, success bool, now uint64) {
	if b.is("ignored-report-moves-no-clock") && !b.current(ticket, success) {
		return
	}
	if !b.is("done-ignores-time") {
		b.advance(now)
	}
	if !b.current(ticket, success) {
		return
	}
	switch b.state {
	case Closed:
		if success {
			switch {
			case b.is("counts-in-total"):
			case b.is("success-takes-one-off"):
				b.failures -= min(b.failures, 1)
			default:
				b.failures = 0
			}
			return
		}
		if b.is("opens-one-late") {
			if b.failures >= b.cfg.FailureThreshold {
				b.open()
			}
			b.failures++
			return
		}
		b.failures++
		if b.failures >= b.cfg.FailureThreshold {
			b.open()
		}
	case HalfOpen:
		b.out -= min(b.out, 1)
		b.reported++
		if b.is("waits-for-every-probe") {
			b.failed = b.failed || !success
			if b.failed {
				if b.reported >= b.cfg.HalfOpenProbes {
					b.open()
				}
				return
			}
		}
		if !success {
			if b.is("half-open-needs-threshold") {
				b.failures++
				if b.failures < b.cfg.FailureThreshold {
					return
				}
			}
			b.open()
			return
		}
		b.successes++
		switch {
		case b.is("one-success-closes"):
			b.close()
		case b.is("needs-one-more-success"):
			if b.successes > b.cfg.HalfOpenProbes {
				b.close()
			}
		case b.successes >= b.cfg.HalfOpenProbes:
			b.close()
		}
	}
}

func (b *breaker) State(now uint64) State {
	if !b.is("state-ignores-time") {
		b.advance(now)
	}
	return b.state
}
