package breaker

import (
	"math"
	"math/rand"
	"slices"

	"ratelab/grader/check"
)

// domain is a check.Domain of the breaker's scripts.
type domain struct {
	aim    // the check it is for
	config func(r *rand.Rand) Config
	start  func(r *rand.Rand) uint64
	wait   func(r *rand.Rand, m *model) uint64
	// Chances of each call (the rest are Allow), of a report being a
	// success, of a report being of a stale ticket when one is there (if
	// the rules allow), and of a ticket never issued. Each script draws
	// its own from these (see swarm).
	done, state, success, stale, bogus float64
	back                               check.StepBack[setup] // steps back in time; none if zero
	// probeSuccess, if not 0, is the chance of a success for a report
	// in HalfOpen, in place of the script's.
	probeSuccess float64
	// backIn is the share of scripts that step back at all (see swarm);
	// 0: all of them, if back allows it.
	backIn float64
	rules  rules
	maxOps int
}

type aim = check.Aim[setup, op]

// rules restrict the scripts of a domain; see Valid.
type rules struct {
	stale bool // Done may report a ticket of an earlier generation
	bogus bool // Done may report a ticket never issued
	huge  bool // times and OpenNs may be anywhere in uint64 (else below 2^50)
}

const moderate = 1 << 50

// walk replays s on the model alone, calling each with every call, its
// time and, for a Done of an issued ticket, that ticket (with the model
// advanced to the call's time first). It stops when each returns false.
func walk(s script, each func(i int, o op, now uint64, m *model, tk *modelTicket) bool) *model {
	m := newModel(s.Setup.Cfg, s.Setup.Start)
	var issuedTickets []*modelTicket
	i := 0
	for o, now := range check.Times(s.Setup.Start, s.Ops) {
		m.Call = i
		m.prior = m.Current
		m.Advance(now)
		var tk *modelTicket
		if o.Call == doneCall && o.Bogus == issued {
			var open []*modelTicket // newest first (see tickets.outstanding)
			for _, t := range slices.Backward(issuedTickets) {
				if !t.reported {
					open = append(open, t)
				}
			}
			if len(open) > 0 && o.Of >= 0 {
				tk = open[o.Of%len(open)]
			}
		}
		if !each(i, o, now, m, tk) {
			return m
		}
		issuedTickets = apply(m, i, o, now, tk, issuedTickets)
		i++
	}
	return m
}

// apply makes call o, the script's i-th (from 0), at now on m. An Allow
// that m lets through issues a ticket, appended to tickets; a Done reports
// tk, or a ticket never issued if tk is nil.
func apply(m *model, i int, o op, now uint64, tk *modelTicket, tickets []*modelTicket) []*modelTicket {
	switch o.Call {
	case allowCall:
		if gen, ok := m.Allow(now); ok {
			tickets = append(tickets, &modelTicket{gen: gen, step: i + 1})
		}
	case stateCall:
		m.StateAt(now)
	default:
		if tk != nil {
			tk.reported = true
			m.Done(tk.gen, true, o.Success, now)
		} else {
			m.Done(0, false, o.Success, now)
		}
	}
	return tickets
}

// modelTicket is a ticket the model issued: its generation, the step
// (1-based) that issued it, and whether it was reported.
type modelTicket struct {
	gen      uint64
	step     int
	reported bool
}

func (d domain) configOK(c Config) bool {
	return c.FailureThreshold >= 1 && c.HalfOpenProbes >= 1 && c.OpenNs >= 1 && (d.rules.huge || c.OpenNs < moderate)
}

// Valid returns how many leading calls of s keep to d's rules, or -1 if
// its setup does not.
func (d domain) Valid(s script) int {
	if !d.configOK(s.Setup.Cfg) || !d.rules.huge && s.Setup.Start >= moderate {
		return -1
	}
	n := len(s.Ops)
	walk(s, func(i int, o op, now uint64, m *model, tk *modelTicket) bool {
		bad := o.Back > 0 && !d.back.Allowed() ||
			!d.rules.huge && (o.Wait >= moderate || now >= moderate)
		if o.Call == doneCall {
			switch {
			case o.Bogus > lastPlus:
				bad = true
			case o.Bogus != issued:
				bad = bad || !d.rules.bogus
			case tk == nil:
				bad = true
			case tk.gen != m.Gen:
				bad = bad || !d.rules.stale
			}
		}
		if bad {
			n = i
		}
		return !bad
	})
	return n
}

// swarm is what one script draws of its domain before its calls (swarm
// testing): whether it calls State at all, how often its calls succeed,
// whether it reports stale tickets and tickets never issued, and whether
// it steps back in time, each where the domain allows it. Scripts that
// leave a feature out go deeper into the others: long runs of failures,
// or of successes, or half-open periods with every report on time.
type swarm struct {
	state, success     float64
	stale, bogus, back bool
}

func (d domain) swarm(r *rand.Rand) swarm {
	return swarm{
		state:   check.Pick(r, d.state, d.state, 0),
		success: check.Pick(r, d.success, d.success, 0.2, 0.8),
		stale:   d.rules.stale && check.Chance(r, 0.8),
		bogus:   d.rules.bogus && check.Chance(r, 0.6),
		back:    d.back.Allowed() && (d.backIn == 0 || check.Chance(r, d.backIn)),
	}
}

// Gen draws calls with the model's state in view, and keeps the longest
// valid prefix.
func (d domain) Gen(r *rand.Rand, size int) script {
	cfg := check.DrawUntil(r, d.config, d.configOK)
	s := script{Setup: setup{Cfg: cfg, Start: d.start(r)}}
	sw := d.swarm(r)
	m := newModel(cfg, s.Setup.Start)
	var tks []*modelTicket
	latest := s.Setup.Start
	for i := range check.Ops(r, size, 4, d.maxOps) {
		o := op{When: check.When{Wait: d.wait(r, m)}}
		// The first two calls step back more often: before any call at
		// or after New's time, only New has set the clock.
		var back check.StepBack[setup]
		if sw.back {
			back = d.back
			if i < 2 {
				back.Chance = max(back.Chance, 0.75)
			}
		}
		if back, ok := back.Draw(r, s.Setup, latest); ok {
			o.Wait, o.Back = 0, back
		}
		now := o.At(latest)
		latest = max(latest, now)
		m.Call = i
		m.Advance(now)
		var current, stale []int
		var open []*modelTicket // newest first (see tickets.outstanding)
		for _, tk := range slices.Backward(tks) {
			if tk.reported {
				continue
			}
			if tk.gen == m.Gen {
				current = append(current, len(open))
			} else {
				stale = append(stale, len(open))
			}
			open = append(open, tk)
		}
		switch x := r.Float64(); {
		case x < sw.state:
			o.Call = stateCall
		case x < sw.state+d.done:
			success := sw.success
			if d.probeSuccess > 0 && m.Current == HalfOpen {
				success = d.probeSuccess
			}
			o.Call, o.Success = doneCall, check.Chance(r, success)
			switch {
			case sw.bogus && check.Chance(r, d.bogus):
				o.Bogus = check.Pick(r, zero, one, lastPlus)
			case sw.stale && len(stale) > 0 && (len(current) == 0 || check.Chance(r, d.stale)):
				o.Of = check.Pick(r, stale...)
			case len(current) > 0:
				o.Of = check.Pick(r, current...)
			default:
				o.Call = allowCall
			}
		}
		var tk *modelTicket
		if o.Call == doneCall && o.Bogus == issued {
			tk = open[o.Of]
		}
		tks = apply(m, i, o, now, tk, tks)
		s.Ops = append(s.Ops, o)
	}
	return check.ValidPrefix(d, s)
}

// base is what every property of the suite shares: how its scripts
// shrink and how their failures are explained.
var base = check.Property[setup, op]{ShrinkSetup: shrinkSetup, ShrinkOp: shrinkOp, Merge: merge}

func (d domain) property(newImpl New) check.Property[setup, op] {
	return d.aim.Property(d, base, func(s script) check.Trace { return replay(newImpl, s) })
}

// toEnd waits, while the breaker is Open, until the end of its open period
// or a nanosecond either side of it; otherwise a little.
func toEnd(small ...uint64) func(r *rand.Rand, m *model) uint64 {
	return func(r *rand.Rand, m *model) uint64 {
		if end, ok := m.OpenEnd(); m.Current == Open && ok && end >= m.Latest && check.Chance(r, 0.7) {
			w := end - m.Latest
			return check.Pick(r, w, w, max(w, 1)-1, w+1)
		}
		return check.Pick(r, small...)
	}
}

// backFew steps back by 1, 10, 100 or 1000 ns, or to 0.
func backFew(r *rand.Rand, _ setup, latest uint64) uint64 {
	return check.Pick[uint64](r, 1, 10, 100, 1000, latest)
}

// consecutiveDomain walks the whole cycle, Closed, Open, HalfOpen and
// Closed again, in small numbers: thresholds of 1 to 3 (1 shows a breaker
// that opens one failure late, 2 a count that a success does not reset),
// open periods of a few nanoseconds that the waits reach, and one or two
// probes, so that a closed period after the probes closed the breaker, and
// the count it starts from, come within a few calls.
var consecutiveDomain = domain{
	aim: aim{Check: "consecutive", Explain: explainConsecutive},
	config: func(r *rand.Rand) Config {
		// 2 most often: the least that walks the cycle and shows a count
		// carried over, which then shrinks to its fewest calls; 3 shows a
		// success that only takes one failure off.
		return Config{FailureThreshold: check.Pick[uint32](r, 1, 2, 2, 3), OpenNs: check.Pick[uint64](r, 1, 2, 5, 10), HalfOpenProbes: uint32(check.Between(r, 1, 2))}
	},
	start: func(r *rand.Rand) uint64 { return check.Pick(r, 0, check.Between(r, 0, 100)) },
	wait:  toEnd(0, 0, 1, 2),
	// Probes mostly succeed: the cycle closes again.
	done: 0.5, state: 0.1, success: 0.5, probeSuccess: 0.85,
	maxOps: 30,
}

var openTimeoutDomain = domain{
	aim: aim{Check: "open-timeout", Explain: explainOpenTimeout},
	config: func(r *rand.Rand) Config {
		return Config{
			FailureThreshold: 1, // the first failure opens it: the open period is the point
			OpenNs:           check.Pick[uint64](r, 1, 2, 10, 1000, 1e9, math.MaxUint64/2, math.MaxUint64-check.Between(r, 0, 1000), math.MaxUint64),
			HalfOpenProbes:   uint32(check.Between(r, 1, 3)),
		}
	},
	start: func(r *rand.Rand) uint64 {
		return check.Pick[uint64](r, 0, 5, 1e12, math.MaxUint64/2, math.MaxUint64-check.Between(r, 0, 2000), math.MaxUint64)
	},
	wait: toEnd(0, 0, 1, 3),
	done: 0.45, state: 0.25, success: 0.3,
	rules: rules{huge: true}, maxOps: 20,
}

var halfOpenDomain = domain{
	aim: aim{Check: "half-open-probes", Explain: explainHalfOpen},
	config: func(r *rand.Rand) Config {
		// A threshold of 2 at times: failed probes must reopen the breaker
		// at once, not count toward it.
		return Config{FailureThreshold: check.Pick[uint32](r, 1, 1, 2), OpenNs: check.Pick[uint64](r, 1, 5, 10), HalfOpenProbes: uint32(check.Between(r, 1, 4))}
	},
	start: func(r *rand.Rand) uint64 { return check.Pick(r, 0, check.Between(r, 0, 1000)) },
	wait:  toEnd(0, 0, 0, 1, 5),
	done:  0.35, state: 0.15, success: 0.75,
	maxOps: 30,
}

var generationDomain = domain{
	aim: aim{Check: "generation", Explain: explainGeneration},
	config: func(r *rand.Rand) Config {
		return Config{FailureThreshold: 1, OpenNs: check.Pick[uint64](r, 2, 10), HalfOpenProbes: uint32(check.Between(r, 1, 3))}
	},
	start: func(r *rand.Rand) uint64 { return check.Pick(r, 0, check.Between(r, 0, 1000)) },
	wait:  toEnd(0, 0, 1, 5),
	done:  0.45, state: 0.1, success: 0.5, stale: 0.5, bogus: 0.15,
	rules: rules{stale: true, bogus: true}, maxOps: 30,
}

var backwardDomain = domain{
	aim: aim{Check: "backward-time", Explain: explainBackward},
	config: func(r *rand.Rand) Config {
		return Config{FailureThreshold: 1, OpenNs: check.Pick[uint64](r, 10, 100, 1000), HalfOpenProbes: uint32(check.Between(r, 1, 2))}
	},
	start: func(r *rand.Rand) uint64 { return check.Pick(r, 100, check.Between(r, 100, 1000)) },
	wait:  toEnd(0, 0, 1, 10, 100),
	// Reports Done ignores (stale, never issued) must move the clock too.
	done: 0.45, state: 0.2, success: 0.4, stale: 0.3, bogus: 0.1,
	back:  check.StepBack[setup]{Chance: 0.25, By: backFew},
	rules: rules{stale: true, bogus: true}, maxOps: 30,
}

var exactDomain = domain{
	aim: aim{Check: "exactness"},
	config: func(r *rand.Rand) Config {
		return Config{FailureThreshold: uint32(check.Between(r, 1, 4)), OpenNs: check.Pick[uint64](r, 1, 10, 100, 1000), HalfOpenProbes: uint32(check.Between(r, 1, 4))}
	},
	start: func(r *rand.Rand) uint64 { return check.Pick(r, 0, check.Between(r, 0, 1000)) },
	wait:  toEnd(0, 0, 1, 10, 100),
	done:  0.45, state: 0.15, success: 0.5, stale: 0.3, bogus: 0.1,
	// Every rule at once: a third of its scripts step back too.
	back: check.StepBack[setup]{Chance: 0.15, By: backFew}, backIn: 0.35,
	rules: rules{stale: true, bogus: true}, maxOps: 40,
}
