package grader_test

import (
	"math"
	"strings"

	"ratelab/grader/report"
)

// moderate is where the slidingwindow suite's overflow check begins to
// speak of values near 64 bits: 2^62.
const moderate = 1 << 62

var slidingwindowClaims = []claim{
	{"slidingwindow", "No call was refused before this one", func(ce *report.Counterexample, _ string) bool {
		return !refused(ce, len(ce.Steps)-1)
	}},
	// "Here call 2, TryAcquire(nowNs=5) was refused: the window already
	// held limit=1 calls."
	{"slidingwindow", "the window already held limit=", func(ce *report.Counterexample, msg string) bool {
		raw, _, _ := clock(ce)
		return all(msg, `call (\d+), TryAcquire\(nowNs=`+numRE+`\)`, func(q []uint64) bool {
			i := int(q[0]) - 1
			return i < len(ce.Steps)-1 && ce.Steps[i].Name == "TryAcquire" && ce.Steps[i].Want == "false" && raw[i] == q[1]
		}) && all(msg, `limit=`+numRE+` calls`, func(q []uint64) bool { return q[0] == setupArg(ce, "limit") })
	}},
	{"slidingwindow", "Time never stepped back up to this call", func(ce *report.Counterexample, _ string) bool { return !steppedBack(ce) }},
	{"slidingwindow", "Nothing in this script comes near 64 bits", func(ce *report.Counterexample, _ string) bool {
		raw, _, _ := clock(ce)
		bucketNs, k := bucketNs(ce), setupArg(ce, "buckets")
		return setupArg(ce, "windowNs") < moderate && setupArg(ce, "limit") != math.MaxUint32 &&
			slicesAll(raw, func(n uint64) bool { return n < moderate && n/bucketNs <= math.MaxUint64/bucketNs-k })
	}},
	// "at nowNs=7 the current bucket is 3, so the window counts buckets 2
	// to 3", of the last call.
	{"slidingwindow", "so the window counts buckets", func(ce *report.Counterexample, msg string) bool {
		raw, _, _ := clock(ce)
		last, cur, k := len(raw)-1, current(ce, len(raw)-1), setupArg(ce, "buckets")
		return all(msg, `at nowNs=`+numRE+` the current bucket is `+numRE+`, so the window counts buckets `+numRE+` to `+numRE, func(q []uint64) bool {
			first := uint64(0)
			if cur >= k-1 {
				first = cur - (k - 1)
			}
			return q[0] == raw[last] && q[1] == cur && q[2] == first && q[3] == cur
		})
	}},
	// "bucket 3 (2 accepted)": calls accepted in it before the last.
	{"slidingwindow", " accepted)", func(ce *report.Counterexample, msg string) bool {
		acc := accepted(ce)
		return all(msg, `bucket `+numRE+` \((\d+) accepted\)`, func(q []uint64) bool { return acc[q[0]] == q[1] })
	}},
	{"slidingwindow", "left the window and must count no more", func(ce *report.Counterexample, msg string) bool {
		cur, k := current(ce, len(ce.Steps)-1), setupArg(ce, "buckets")
		return all(msg, `bucket `+numRE+` \(\d+ accepted\)`, func(q []uint64) bool { return q[0] <= cur && cur-q[0] >= k })
	}},
	{"slidingwindow", "no bucket holding accepted calls has left it yet", func(ce *report.Counterexample, _ string) bool {
		cur, k := current(ce, len(ce.Steps)-1), setupArg(ce, "buckets")
		for id, n := range accepted(ce) {
			if n > 0 && id <= cur && cur-id >= k {
				return false
			}
		}
		return true
	}},
	// A bucket on the window's edge: buckets−1 behind the current one
	// (the last that counts), or buckets behind it (the first that does
	// not), or, when buckets does not divide windowNs, between those and
	// windowNs behind it.
	{"slidingwindow", "on its edge", func(ce *report.Counterexample, msg string) bool {
		cur := current(ce, len(ce.Steps)-1)
		_, list, found := strings.Cut(msg, "on its edge: ")
		list, _, _ = strings.Cut(list, ". ")
		return !found || all(list, `bucket `+numRE+` \(\d+ accepted\)`, func(q []uint64) bool { return q[0] <= cur && onEdge(ce, cur-q[0]) })
	}},
	{"slidingwindow", "no bucket holding accepted calls is on its edge", func(ce *report.Counterexample, _ string) bool {
		cur := current(ce, len(ce.Steps)-1)
		for id, n := range accepted(ce) {
			if n > 0 && id <= cur && onEdge(ce, cur-id) {
				return false
			}
		}
		return true
	}},
	// "Here windowNs=2^62…": the one template that says "Here windowNs=".
	{"slidingwindow", "windowNs=", func(ce *report.Counterexample, msg string) bool {
		return !strings.Contains(msg, "Here windowNs=") ||
			all(msg, `Here windowNs=`+numRE, func(q []uint64) bool { return q[0] == setupArg(ce, "windowNs") && q[0] >= moderate })
	}},
	{"slidingwindow", "limit=math.MaxUint32", func(ce *report.Counterexample, _ string) bool { return setupArg(ce, "limit") == math.MaxUint32 }},
	// "call 2 at nowNs=math.MaxUint64 falls in bucket math.MaxUint64,
	// fewer than buckets from the last bucket of time".
	{"slidingwindow", "fewer than buckets from the last bucket of time", func(ce *report.Counterexample, msg string) bool {
		raw, _, _ := clock(ce)
		b, k := bucketNs(ce), setupArg(ce, "buckets")
		return all(msg, `call (\d+) at nowNs=`+numRE+` falls in bucket `+numRE, func(q []uint64) bool {
			return raw[q[0]-1] == q[1] && q[2] == q[1]/b && q[2] > math.MaxUint64/b-k
		})
	}},
	{"slidingwindow", " comes at nowNs=", func(ce *report.Counterexample, msg string) bool {
		raw, _, _ := clock(ce)
		return all(msg, `call (\d+) comes at nowNs=`+numRE, func(q []uint64) bool { return raw[q[0]-1] == q[1] && q[1] >= moderate })
	}},
}

// bucketNs is how long a bucket of ce's window lasts.
func bucketNs(ce *report.Counterexample) uint64 {
	return setupArg(ce, "windowNs") / setupArg(ce, "buckets")
}

// current is the bucket of step i of ce: that of the latest time so far.
func current(ce *report.Counterexample, i int) uint64 {
	_, latest, _ := clock(ce)
	return latest[i] / bucketNs(ce)
}

// accepted counts, by bucket, the calls the contract accepts before the
// last step of ce.
func accepted(ce *report.Counterexample) map[uint64]uint64 {
	out := map[uint64]uint64{}
	for i, s := range ce.Steps[:len(ce.Steps)-1] {
		if s.Name == "TryAcquire" && s.Want == "true" {
			out[current(ce, i)]++
		}
	}
	return out
}

// onEdge reports whether a bucket dist behind the current one is on the
// window's edge.
func onEdge(ce *report.Counterexample, dist uint64) bool {
	k := setupArg(ce, "buckets")
	return dist > 0 && dist >= k-1 && dist <= max(k, (setupArg(ce, "windowNs")-1)/bucketNs(ce))
}
