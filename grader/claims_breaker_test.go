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
