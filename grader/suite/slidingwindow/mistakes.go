package slidingwindow

import (
	"fmt"
	"math"

	"ratelab/grader/check"
)

// mistakes are those learners make with a bucketed sliding window (see
// check.Mistake). They are listed pitfall by pitfall, exactness last, so
// that where a mistake of a named pitfall and one of exactness answer
// alike, the named one is charged.
var mistakes = check.Mistakes(mistaken, []check.Mistake[New]{
	// rejected-counted: a refused call is not counted.
	{Name: "counts-rejects", Pitfall: "rejected-counted", Says: "counts every call in the current bucket, refused or not, and refuses it when the window already held limit calls"},
	{Name: "refusal-stays-in-total", Pitfall: "rejected-counted", Says: "adds a refused call to its running total but to no bucket, so that the refusal stays counted until a jump of a whole window empties the total"},
	// stale-bucket: the buckets the window moves past stop counting.
	{Name: "stale-slot", Pitfall: "stale-bucket", Says: "keeps a ring of one counter per bucket and, moving on, clears only the slot of the bucket it enters, not the slots it skips, so that after a jump of more than one bucket old counts stay"},
	{Name: "sums-stale-slots", Pitfall: "stale-bucket", Says: "keeps a ring of slots, each with the bucket id it counts, resets a slot when an accepted call claims it for a new bucket, but sums every slot whatever its id, so that a bucket that left the window counts until its slot is reused"},
	{Name: "long-jump-keeps-total", Pitfall: "stale-bucket", Says: "keeps its running total when the window jumps on by buckets or more, so that the calls it held then count for ever"},
	{Name: "count-does-not-advance", Pitfall: "stale-bucket", Says: "moves the window on in TryAcquire only, so that Count(nowNs) still counts the buckets that left the window since the latest TryAcquire"},
	// window-edge: exactly the current bucket and the buckets−1 before it.
	{Name: "plus-one-bucket", Pitfall: "window-edge", Says: "drops a bucket only once it is more than buckets behind the current one, so that the window holds buckets+1 buckets"},
	{Name: "minus-one-bucket", Pitfall: "window-edge", Says: "drops a bucket once it is buckets−1 behind the current one, so that the window holds buckets−1 buckets"},
	{Name: "window-in-ns", Pitfall: "window-edge", Says: "drops a bucket once its start is windowNs or more before the latest time, so that when buckets does not divide windowNs the window sometimes holds one bucket more, depending on where in its bucket the latest time falls"},
	{Name: "buckets-from-window", Pitfall: "window-edge", Says: "counts windowNs/bucketNs buckets instead of buckets, one or more too many when buckets does not divide windowNs"},
	// backward-time: the current bucket never moves back.
	{Name: "rewinds-current-bucket", Pitfall: "backward-time", Says: "keeps a ring of slots, each with the bucket id it counts, and takes nowNs/bucketNs as the current bucket even when it is earlier than the latest bucket seen, so that a step back counts an old window and claims an old bucket's slot (wiping the newer bucket that held it)"},
	{Name: "counts-in-earlier-bucket", Pitfall: "backward-time", Says: "decides in the latest bucket seen, but counts a call made at an earlier time in the ring slot of that time's bucket (the bucket of the window that shares it), so that the call leaves the window too early"},
	// overflow: every bucket id and time up to MaxUint64 is real.
	{Name: "max-marker", Pitfall: "overflow", Says: "marks an empty slot with the bucket id MaxUint64, which is also the id of the last bucket when bucketNs is 1, so that calls in that bucket are never counted"},
	{Name: "wrapping-expiry", Pitfall: "overflow", Says: "keeps a queue of the buckets holding calls, oldest first, and drops the oldest while id+buckets ≤ the current bucket, a sum that wraps around for ids next to MaxUint64, so that such a bucket is dropped as soon as it is the oldest"},
	{Name: "wrapping-window-end", Pitfall: "overflow", Says: "keeps a queue of the buckets holding calls, oldest first, and drops the oldest while (id+buckets)×bucketNs ≤ the latest time, a product that wraps around next to MaxUint64, so that such a bucket is dropped as soon as it is the oldest"},
	// exactness: the rest of the contract.
	{Name: "accepts-at-limit", Pitfall: "exactness", Says: "accepts a call while Count(nowNs) ≤ limit instead of < limit, one call more than limit in a window"},
	{Name: "refuses-below-limit", Pitfall: "exactness", Says: "refuses a call once Count(nowNs)+1 ≥ limit, one call fewer than limit in a window"},
})

// mistaken returns New for the model with the named mistake. Like the
// contract's New, it panics naming an argument out of range.
func mistaken(mistake string) New {
	return func(limit uint32, windowNs uint64, buckets int) Window {
		if buckets < 1 {
			panic(fmt.Sprintf("slidingwindow: buckets must be at least 1, got %d", buckets))
		}
		if windowNs < uint64(buckets) {
			panic(fmt.Sprintf("slidingwindow: windowNs must be at least buckets, got %d", windowNs))
		}
		m := &variant{model: newModel(setup{Limit: limit, WindowNs: windowNs, Buckets: buckets}), mistake: mistake}
		if mistake == "stale-slot" || mistake == "sums-stale-slots" || mistake == "rewinds-current-bucket" {
			m.ring = make([]slot, buckets)
		}
		return m
	}
}

// variant is the contract's window (model), a map from bucket id to the
// calls counted in it, with a switch for each mistake; the mistakes of a
// ring of slots keep one.
type variant struct {
	*model
	mistake  string
	latestNs uint64   // the latest time seen, for the windows measured in ns
	refusals uint64   // refusal-stays-in-total: the refusals since the last jump of a window
	ghost    uint64   // long-jump-keeps-total: the calls held at every jump of a window
	ring     []slot   // stale-slot, sums-stale-slots, rewinds-current-bucket: slot id%buckets
	queue    []uint64 // wrapping-expiry, wrapping-window-end: the buckets holding calls, oldest first
}

// slot is one counter of a ring, with the bucket id it counts.
type slot struct {
	id, n uint64
}

// moveTo makes the call at now move the window on, and returns the current
// bucket.
func (w *variant) moveTo(now uint64) uint64 {
	id := now / w.BucketNs
	w.latestNs = max(w.latestNs, now)
	if id > w.Cur && id-w.Cur >= w.K {
		switch w.mistake {
		case "refusal-stays-in-total":
			w.refusals = 0
		case "long-jump-keeps-total":
			w.ghost = w.total(w.Cur) // the window's calls, and the ghosts of those before
		}
	}
	switch {
	case w.mistake == "rewinds-current-bucket":
		w.Cur = id
	case id > w.Cur && w.mistake == "stale-slot":
		w.ring[id%w.K].n = 0 // the slot entered, and no other
		w.Cur = id
	default:
		w.Cur = max(w.Cur, id)
	}
	// A queue drops its oldest buckets while they have expired.
	for len(w.queue) > 0 && w.expired(w.queue[0]) {
		delete(w.Accepted, w.queue[0])
		w.queue = w.queue[1:]
	}
	return w.Cur
}

// expired reports whether the oldest bucket of a queue, id, has left the
// window, as the mistake tests it.
func (w *variant) expired(id uint64) bool {
	if w.mistake == "wrapping-expiry" {
		return id+w.K <= w.Cur // wraps
	}
	return (id+w.K)*w.BucketNs <= w.latestNs // wraps
}

// counts reports whether bucket id counts when cur is the current bucket.
func (w *variant) counts(id, cur uint64) bool {
	if id > cur {
		return false
	}
	switch w.mistake {
	case "plus-one-bucket":
		return cur-id <= w.K
	case "minus-one-bucket":
		return cur-id+1 < w.K
	case "window-in-ns":
		return w.latestNs-id*w.BucketNs < w.WindowNs
	case "buckets-from-window":
		return cur-id < w.WindowNs/w.BucketNs
	case "max-marker":
		return id != math.MaxUint64 && cur-id < w.K
	case "wrapping-expiry", "wrapping-window-end":
		return true // until the queue drops it
	}
	return cur-id < w.K
}

// total is the count of the window ending at bucket cur.
func (w *variant) total(cur uint64) uint64 {
	var n uint64
	switch w.mistake {
	case "stale-slot", "sums-stale-slots":
		for _, s := range w.ring {
			n += s.n
		}
		return n
	case "rewinds-current-bucket":
		for _, s := range w.ring {
			if s.id <= cur && cur-s.id < w.K {
				n += s.n
			}
		}
		return n
	}
	for id, c := range w.Accepted {
		if w.counts(id, cur) {
			n += uint64(c)
		}
	}
	return n + w.refusals + w.ghost
}

func (w *variant) Count(now uint64) uint32 {
	cur := w.Cur
	if w.mistake != "count-does-not-advance" {
		cur = w.moveTo(now)
	}
	return clamp32(w.total(cur))
}

func (w *variant) TryAcquire(now uint64) bool {
	cur := w.moveTo(now)
	c := w.total(cur)
	var ok bool
	switch w.mistake {
	case "accepts-at-limit":
		ok = c <= uint64(w.Limit)
	case "refuses-below-limit":
		ok = c+1 < uint64(w.Limit)
	default:
		ok = c < uint64(w.Limit)
	}
	switch {
	case !ok && w.mistake == "refusal-stays-in-total":
		w.refusals++
	case !ok && w.mistake != "counts-rejects":
	case w.mistake == "stale-slot":
		w.ring[cur%w.K].n++
	case w.mistake == "sums-stale-slots" || w.mistake == "rewinds-current-bucket":
		s := &w.ring[cur%w.K]
		if s.id != cur {
			*s = slot{id: cur}
		}
		s.n++
	case w.mistake == "wrapping-expiry" || w.mistake == "wrapping-window-end":
		if n := len(w.queue); n == 0 || w.queue[n-1] != cur {
			w.queue = append(w.queue, cur)
		}
		w.Accepted[cur]++
	case w.mistake == "counts-in-earlier-bucket":
		id := min(now/w.BucketNs, cur)
		w.Accepted[cur-(cur-id)%w.K]++ // the bucket of the window in id's slot
	default:
		w.Accepted[cur]++
	}
	return ok
}

// clamp32 is n as a uint32, MaxUint32 if it is more: a count over limit
// is already wrong, and must not wrap to look right.
func clamp32(n uint64) uint32 { return uint32(min(n, math.MaxUint32)) }
