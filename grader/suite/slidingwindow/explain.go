package slidingwindow

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"ratelab/grader/check"
)

// Explanations: what the failing script shows, in its own numbers, before
// the check's general words. Where the script does not show what the
// check's words speak of (no refusal, no step back, no value near 64
// bits, ...), the explanation gives the rules instead.

// contractRules is the contract's window in one sentence, for a failure whose
// script does not show what its check's own words speak of.
const contractRules = "Count sums the calls accepted in the current bucket and the buckets−1 before it; TryAcquire accepts iff that sum is below limit, and then counts the call in the current bucket; the current bucket is max(nowNs/bucketNs, the latest bucket seen)."

// walk makes the first n calls of s on a new model and returns it with the
// latest time they reached. each, if not nil, is shown every call just
// before the model makes it: its index, the call, the latest time before
// it, its time and the model.
func walk(s script, n int, each func(i int, o op, latest, now uint64, m *model)) (*model, uint64) {
	m := newModel(s.Setup)
	latest := uint64(0)
	for i, o := range s.Ops[:n] {
		if each != nil {
			each(i, o, latest, o.at(latest, m.BucketNs), m)
		}
		latest = m.apply(o, latest)
	}
	return m, latest
}

// refuses reports whether m refuses a TryAcquire at now, without making
// it.
func refuses(m *model, now uint64) bool { return m.CountAt(m.BucketAt(now)) >= m.Limit }

// left reports whether bucket id has left the window when cur is the
// current bucket.
func left(m *model, id, cur uint64) bool { return !m.InWindow(id, cur) }

// onEdge reports whether bucket id is on the window's edge when cur is the
// current bucket.
func onEdge(m *model, id, cur uint64) bool { return m.edge(cur - id) }

// describe describes the window of a call at now: its current bucket and
// the buckets it counts.
func (m *model) describe(now uint64) string {
	cur := m.BucketAt(now)
	first := uint64(0)
	if cur >= m.K-1 {
		first = cur - (m.K - 1)
	}
	return fmt.Sprintf("at nowNs=%s the current bucket is %s, so the window counts buckets %s to %s", check.U(now), check.U(cur), check.U(first), check.U(cur))
}

// modelAt replays s on the model up to (not including) call last and
// returns it with call last's time.
func modelAt(s script, last int) (*model, uint64) {
	m, latest := walk(s, last, nil)
	return m, s.Ops[last].at(latest, m.BucketNs)
}

// bucketsWhere lists the buckets holding accepted calls that pick selects
// when cur is the current bucket, with their calls.
func bucketsWhere(m *model, cur uint64, pick func(m *model, id, cur uint64) bool) string {
	var ids []uint64
	for id, c := range m.Accepted {
		if c > 0 && id <= cur && pick(m, id, cur) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	var parts []string
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("bucket %s (%d accepted)", check.U(id), m.Accepted[id]))
	}
	return strings.Join(parts, ", ")
}

func explainStale(s script, t check.Trace, why string) string {
	return explainBuckets(s, t, left, "Here %s: %s left the window and must count no more. %s", "Here %s, and no bucket holding accepted calls has left it yet. "+contractRules, why)
}

func explainEdge(s script, t check.Trace, why string) string {
	return explainBuckets(s, t, onEdge, "Here %s; on its edge: %s. %s", "Here %s, and no bucket holding accepted calls is on its edge. "+contractRules, why)
}

// explainBuckets explains a failure by the buckets holding accepted calls
// that pick selects at the failing call: form is given the window there,
// those buckets and why; none, the window there and the contractRules.
func explainBuckets(s script, t check.Trace, pick func(m *model, id, cur uint64) bool, form, none, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	m, now := modelAt(s, last)
	ids := bucketsWhere(m, m.BucketAt(now), pick)
	if ids == "" {
		return fmt.Sprintf(none, m.describe(now))
	}
	return fmt.Sprintf(form, m.describe(now), ids, why)
}

func explainRejected(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	var refused []string
	walk(s, last, func(i int, o op, _, now uint64, m *model) {
		if !o.Count && refuses(m, now) {
			refused = append(refused, fmt.Sprintf("call %d, TryAcquire(nowNs=%s)", i+1, check.U(now)))
		}
	})
	if len(refused) == 0 {
		return "No call was refused before this one. " + contractRules
	}
	return fmt.Sprintf("Here %s %s refused: the window already held limit=%s calls. %s",
		strings.Join(refused, " and "), plural(len(refused), "was", "were"), limitString(s.Setup.Limit), why)
}

func explainBackward(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	var backs []string
	walk(s, last+1, func(i int, o op, latest, now uint64, _ *model) {
		if o.Back > 0 {
			backs = append(backs, fmt.Sprintf("call %d stepped back from %s to %s", i+1, check.U(latest), check.U(now)))
		}
	})
	if len(backs) == 0 {
		return "Time never stepped back up to this call. " + contractRules
	}
	return fmt.Sprintf("Here %s. %s", strings.Join(backs, ", "), why)
}

// explainOverflow names the values of the script that come near 64 bits
// (or 32, for the limit), or says that none does.
func explainOverflow(s script, t check.Trace, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	var edges []string
	if s.Setup.WindowNs >= moderateLimit {
		edges = append(edges, "windowNs="+check.U(s.Setup.WindowNs))
	}
	if s.Setup.Limit == math.MaxUint32 {
		edges = append(edges, "limit=math.MaxUint32")
	}
	late := false
	walk(s, last+1, func(i int, _ op, _, now uint64, m *model) {
		if id := now / m.BucketNs; !late && id > math.MaxUint64/m.BucketNs-m.K {
			late = true
			edges = append(edges, fmt.Sprintf("call %d at nowNs=%s falls in bucket %s, fewer than buckets from the last bucket of time", i+1, check.U(now), check.U(id)))
		} else if !late && now >= moderateLimit {
			late = true
			edges = append(edges, fmt.Sprintf("call %d comes at nowNs=%s", i+1, check.U(now)))
		}
	})
	if len(edges) == 0 {
		return "Nothing in this script comes near 64 bits. " + contractRules
	}
	return fmt.Sprintf("Here %s. %s", strings.Join(edges, ", "), why)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
