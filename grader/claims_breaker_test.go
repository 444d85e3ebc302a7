package grader_test

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"ratelab/grader/report"
)

var breakerClaims = []claim{
	// "At step 3 the clock stepped back, from 10 to 4: ... so an open
	// period started then starts at 10".
	{"breaker", "the clock stepped back, from", func(ce *report.Counterexample, msg string) bool {
		return stepsBack(ce, msg, `At step (\d+) the clock stepped back, from `+numRE+` to `+numRE) &&
			all(msg, `from `+numRE+` to `+numRE+`: an earlier time counts as the latest one, so an open period started then starts at `+numRE,
				func(q []uint64) bool { return q[0] == q[2] })
	}},
	{"breaker", "FailureThreshold is ", func(ce *report.Counterexample, msg string) bool {
		return all(msg, `FailureThreshold is (\d+): the breaker opens on (\d+) failures`, func(q []uint64) bool {
			return q[0] == setupArg(ce, "FailureThreshold") && q[1] == q[0]
		})
	}},
	// "it is Open before this call".
	{"breaker", "before this call", func(ce *report.Counterexample, msg string) bool {
		prior, b := beforeLast(ce)
		return every(msg, `it is ([A-Za-z]+) before this call`, func(q []string) bool { return q[0] == prior }) &&
			every(msg, `Allow had let (\d+) through and (\d+) succeeded before this call`, func(q []string) bool {
				return b.state == "HalfOpen" && q[0] == strconv.FormatUint(b.probes, 10) && q[1] == strconv.FormatUint(b.successes, 10)
			})
	}},
	{"breaker", "HalfOpenProbes is ", func(ce *report.Counterexample, msg string) bool {
		return all(msg, `HalfOpenProbes is (\d+): in this half-open period Allow lets the first (\d+) calls through and refuses the rest, and it takes (\d+) successful`, func(q []uint64) bool {
			return q[0] == setupArg(ce, "HalfOpenProbes") && q[1] == q[0] && q[2] == q[0]
		})
	}},
	// "The reports counted since New are failure (step 2), success (step
	// 4); every success starts the count again, so the count is 0 here
	// and the breaker is still Closed."
	{"breaker", "The reports counted ", func(ce *report.Counterexample, msg string) bool {
		last := len(ce.Steps) - 1
		count := uint64(0)
		for _, q := range quotesText(msg, `(failure|success) \(step (\d+)\)`) {
			i, _ := strconv.Atoi(q[1])
			if i < 1 || i > last || !isDone(ce.Steps[i-1], q[0] == "success") {
				return false
			}
			count = map[bool]uint64{true: 0, false: count + 1}[q[0] == "success"]
		}
		return all(msg, `so the count is (\d+) here and the breaker is still Closed`, func(q []uint64) bool {
			return q[0] == count && count < setupArg(ce, "FailureThreshold")
		})
	}},
	{"breaker", "since the probes closed it at step", func(ce *report.Counterexample, msg string) bool {
		return all(msg, `since the probes closed it at step (\d+)`, func(q []uint64) bool {
			return int(q[0]) < len(ce.Steps) && isDone(ce.Steps[q[0]-1], true)
		})
	}},
	// "The breaker opened at nowNs=5 with OpenNs=10, so its open period
	// ends at 15 exactly (...). This call comes at 12, before it: still
	// Open."
	{"breaker", "so its open period ends at", func(ce *report.Counterexample, msg string) bool {
		_, latest, _ := clock(ce)
		now := latest[len(latest)-1]
		return all(msg, `The breaker opened at nowNs=`+numRE+` with OpenNs=`+numRE+`, so its open period ends at `+numRE+` exactly \(at that instant it is already over\)\. This call comes at `+numRE+`, (?:before|at or after) it`, func(q []uint64) bool {
			return q[1] == setupArg(ce, "OpenNs") && q[0] <= math.MaxUint64-q[1] && q[2] == q[0]+q[1] && q[3] == now && (now < q[2]) == strings.Contains(msg, "before it: still Open")
		}) && timeSeen(ce, msg, `The breaker opened at nowNs=`+numRE)
	}},
	{"breaker", "their sum is past MaxUint64", func(ce *report.Counterexample, msg string) bool {
		return all(msg, `The breaker opened at nowNs=`+numRE+` with OpenNs=`+numRE+`: their sum is past MaxUint64`, func(q []uint64) bool {
			return q[1] == setupArg(ce, "OpenNs") && q[0] > math.MaxUint64-q[1]
		}) && timeSeen(ce, msg, `The breaker opened at nowNs=`+numRE)
	}},
	// "A probe failed in the half-open period, which opened the breaker
	// again at nowNs=7, for OpenNs=3 more: that open period ends at 10."
	{"breaker", "A probe failed in the half-open period", func(ce *report.Counterexample, msg string) bool {
		_, latest, _ := clock(ce)
		return all(msg, `opened the breaker again at nowNs=`+numRE+`, for OpenNs=`+numRE+` more: that open period (?:ends at `+numRE+`|never ends)`, func(q []uint64) bool {
			failed := false
			for i, s := range ce.Steps[:len(ce.Steps)-1] {
				failed = failed || isDone(s, false) && latest[i] == q[0]
			}
			end := regexp.MustCompile(`ends at ` + numRE).FindStringSubmatch(msg)
			ends := q[0] <= math.MaxUint64-q[1]
			return failed && q[1] == setupArg(ce, "OpenNs") && ends == (end != nil) && (end == nil || num(end[1]) == q[0]+q[1])
		})
	}},
	{"breaker", "is one Allow never issued", func(ce *report.Counterexample, msg string) bool {
		return all(msg, `The ticket reported at step (\d+) is one Allow never issued`, func(q []uint64) bool {
			s := ce.Steps[q[0]-1]
			return s.Name == "Done" && strings.Contains(s.Call, "never issued")
		})
	}},
	{"breaker", "so it belongs to an earlier generation", func(ce *report.Counterexample, msg string) bool {
		return all(msg, `The ticket reported at step (\d+) was issued at step (\d+); the breaker has changed state since \(last at step (\d+)\)`, func(q []uint64) bool {
			s := ce.Steps[q[0]-1]
			return s.Name == "Done" && strings.Contains(s.Call, "[from step "+strconv.FormatUint(q[1], 10)+"]") && q[1] <= q[2] && q[2] <= q[0]
		})
	}},
}

// isDone reports whether s is a Done reporting success.
func isDone(s report.Step, success bool) bool {
	v, ok := s.Args["success"].(bool)
	return s.Name == "Done" && ok && v == success
}

// timeSeen reports whether the time re quotes in msg is one at which a
// step before the last of ce is counted (or New's).
func timeSeen(ce *report.Counterexample, msg, re string) bool {
	_, latest, _ := clock(ce)
	return all(msg, re, func(q []uint64) bool {
		return q[0] == setupArg(ce, "nowNs") || slicesAny(latest[:len(latest)-1], func(n uint64) bool { return n == q[0] })
	})
}

// breaker is the contract's circuit breaker, replayed over a
// counterexample's steps for the claims that speak of its state: Closed
// counts failures reported in a row and opens at FailureThreshold; Open
// turns HalfOpen at openedAt+OpenNs (never, past MaxUint64), seen by any
// call; HalfOpen lets HalfOpenProbes calls through, closes after as many
// successes and opens again at one failure. Every change of state starts
// a generation; a report of a ticket of an earlier one, or never issued,
// changes nothing.
type breaker struct {
	ce                          *report.Counterexample
	state                       string
	failures, probes, successes uint64
	gen                         int
	openedAt                    uint64
	gens                        map[int]int // the generation of the ticket each step (1-based) issued
}

func newBreaker(ce *report.Counterexample) *breaker {
	return &breaker{ce: ce, state: "Closed", gens: map[int]int{}}
}

func (b *breaker) set(state string, now uint64) {
	b.state, b.gen, b.failures, b.probes, b.successes = state, b.gen+1, 0, 0, 0
	if state == "Open" {
		b.openedAt = now
	}
}

// tick applies the time now.
func (b *breaker) tick(now uint64) {
	open := setupArg(b.ce, "OpenNs")
	if b.state == "Open" && b.openedAt <= math.MaxUint64-open && now >= b.openedAt+open {
		b.set("HalfOpen", now)
	}
}

// step makes step i (0-based) of the counterexample at now, its time
// already applied.
func (b *breaker) step(i int, now uint64) {
	s := b.ce.Steps[i]
	switch s.Name {
	case "Allow":
		if b.state == "Closed" || b.state == "HalfOpen" && b.probes < setupArg(b.ce, "HalfOpenProbes") {
			if b.state == "HalfOpen" {
				b.probes++
			}
			b.gens[i+1] = b.gen
		}
	case "Done":
		m := regexp.MustCompile(`\[from step (\d+)\]`).FindStringSubmatch(s.Call)
		if m == nil {
			return
		}
		from, _ := strconv.Atoi(m[1])
		if g, ok := b.gens[from]; !ok || g != b.gen {
			return
		}
		delete(b.gens, from)
		success := isDone(s, true)
		switch {
		case b.state == "Closed" && success:
			b.failures = 0
		case b.state == "Closed":
			b.failures++
			if b.failures >= setupArg(b.ce, "FailureThreshold") {
				b.set("Open", now)
			}
		case b.state == "HalfOpen" && success:
			b.successes++
			if b.successes >= setupArg(b.ce, "HalfOpenProbes") {
				b.set("Closed", now)
			}
		case b.state == "HalfOpen":
			b.set("Open", now)
		}
	}
}

// beforeLast replays every step of ce but the last, and returns the
// breaker's state then (before the last call's time is applied) and the
// breaker with that time applied.
func beforeLast(ce *report.Counterexample) (string, *breaker) {
	_, latest, _ := clock(ce)
	b := newBreaker(ce)
	last := len(ce.Steps) - 1
	for i := range last {
		b.tick(latest[i])
		b.step(i, latest[i])
	}
	prior := b.state
	b.tick(latest[last])
	return prior, b
}
