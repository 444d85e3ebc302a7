package slidingwindow

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"ratelab/grader/check"
)

// Traps: each check's failure must contain the mistake it names. A
// failure whose script lacks it is exactness's to report (see
// check.Property.Trap). Where the mistake is a kind of call (a step back, a
// refused call, huge values), the trap asks the implementation too: the
// same script without that kind of call, which the contract answers the
// same way, must pass, so the failure is the calls' doing.

// facts is what the model saw up to and including call last of a script.
type facts struct {
	steppedBack bool // a call stepped back in time
	refused     bool // a TryAcquire before call last was refused
	stale       bool // at call last, a bucket holding accepted calls has left the window
	edge        bool // at call last, a bucket holding accepted calls is on the window's edge
	huge        bool // windowNs, or a time, is at least 2^62
}

func factsOf(s script, last int) facts {
	f := facts{huge: s.Setup.WindowNs >= moderateLimit}
	walk(s, last+1, func(i int, o op, _, now uint64, m *model) {
		f.steppedBack = f.steppedBack || o.Back > 0
		f.huge = f.huge || now >= moderateLimit
		if i < last {
			f.refused = f.refused || !o.Count && refuses(m, now)
			return
		}
		cur := m.bucketAt(now)
		for id, c := range m.accepted {
			if c > 0 && id <= cur {
				f.stale = f.stale || !m.inWindow(id, cur)
				f.edge = f.edge || m.edge(cur-id)
			}
		}
	})
	return f
}

// walk makes the first n calls of s on a new model and returns it with the
// latest time they reached. each, if not nil, is shown every call just
// before the model makes it: its index, the call, the latest time before
// it, its time and the model.
func walk(s script, n int, each func(i int, o op, latest, now uint64, m *model)) (*model, uint64) {
	m := newModel(s.Setup)
	latest := uint64(0)
	for i, o := range s.Ops[:n] {
		if each != nil {
			each(i, o, latest, o.at(latest, m.bucketNs), m)
		}
		latest = m.apply(o, latest)
	}
	return m, latest
}

// refuses reports whether m refuses a TryAcquire at now, without making
// it.
func refuses(m *model, now uint64) bool { return m.countAt(m.bucketAt(now)) >= m.limit }

// rejectedTrap: a refused call came before the failure, the failure errs
// the way counting refusals does (Count too high, or a call refused), and
// with the refused calls made as Count calls instead the script passes.
func rejectedTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	if !factsOf(s, last).refused || !tooFull(t.Steps[last].Call, t.Steps[last].Got, t.Steps[last].Want, t.Panic != nil) {
		return false
	}
	alt := script{Setup: s.Setup, Ops: append([]op(nil), s.Ops...)}
	walk(s, last, func(i int, o op, _, now uint64, m *model) {
		if !o.Count && refuses(m, now) {
			alt.Ops[i].Count = true
		}
	})
	return !replay(alt).Bad
}

// tooFull reports whether a step errs as a window that counts too much
// does: Count above the model's, or a TryAcquire refused that should pass.
func tooFull(call, got, want string, panicked bool) bool {
	if panicked {
		return true
	}
	if call[:5] == "Count" {
		g, err1 := strconv.ParseUint(got, 10, 64)
		w, err2 := strconv.ParseUint(want, 10, 64)
		return err1 == nil && err2 == nil && g > w
	}
	return got == "false" && want == "true"
}

// staleTrap: at the failing call, a bucket holding accepted calls has left
// the window, and without those calls (made as Count calls instead) the
// script passes.
func staleTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	return factsOf(s, last).stale && !replay(without(s, last, left)).Bad
}

// edgeTrap: at the failing call, a bucket holding accepted calls is on the
// window's edge, and without those calls the script passes.
func edgeTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	return factsOf(s, last).edge && !replay(without(s, last, onEdge)).Bad
}

// left reports whether bucket id has left the window when cur is the
// current bucket.
func left(m *model, id, cur uint64) bool { return !m.inWindow(id, cur) }

// onEdge reports whether bucket id is on the window's edge when cur is the
// current bucket.
func onEdge(m *model, id, cur uint64) bool { return m.edge(cur - id) }

// without returns s with the TryAcquire calls accepted into the buckets
// that pick selects at call last made Count calls instead.
func without(s script, last int, pick func(m *model, id, cur uint64) bool) script {
	var nows []uint64
	m, _ := walk(s, last+1, func(_ int, _ op, _, now uint64, _ *model) { nows = append(nows, now) })
	cur := m.bucketAt(nows[last])
	alt := script{Setup: s.Setup, Ops: append([]op(nil), s.Ops...)}
	for i, o := range s.Ops[:last] {
		if id := max(nows[i]/m.bucketNs, 0); !o.Count && id <= cur && pick(m, id, cur) {
			alt.Ops[i].Count = true
		}
	}
	return alt
}

// backwardTrap: a call stepped back, and the same script with every step
// back made a call at the latest time instead (the same thing, by the
// contract) passes.
func backwardTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	if !factsOf(s, last).steppedBack {
		return false
	}
	alt := script{Setup: s.Setup, Ops: make([]op, len(s.Ops))}
	for i, o := range s.Ops {
		if o.Back > 0 {
			o = op{Count: o.Count}
		}
		alt.Ops[i] = o
	}
	return !replay(alt).Bad
}

// overflowTrap: a time or windowNs is huge, and the same calls moved down
// to small times (by whole buckets, so that every call falls in the same
// place of its bucket and the window's state is the same) pass.
func overflowTrap(s script, t check.Trace, replay func(script) check.Trace) bool {
	last := t.Last()
	if !factsOf(s, last).huge {
		return false
	}
	alt, ok := shifted(s)
	return ok && !replay(alt).Bad
}

// shifted returns s with every time moved down by the same whole number of
// buckets, as far as the earliest time allows; false if windowNs itself is
// huge (nothing to move).
func shifted(s script) (script, bool) {
	if s.Setup.WindowNs >= moderateLimit {
		return s, false
	}
	b := s.Setup.bucketNs()
	var times []uint64
	latest := uint64(0)
	for _, o := range s.Ops {
		now := o.at(latest, b)
		times = append(times, now)
		latest = max(latest, now)
	}
	if len(times) == 0 {
		return s, false
	}
	low := times[0]
	for _, x := range times {
		low = min(low, x)
	}
	// Move by whole windows too, where they fit: an implementation may
	// align something of its own to windowNs.
	step := b
	if w := s.Setup.WindowNs; w%b == 0 {
		step = w
	} else if hi, lo := bits.Mul64(w/gcd(w, b), b); hi == 0 {
		step = lo
	}
	d := low / step * step
	out := script{Setup: s.Setup}
	latest = 0
	for i, o := range s.Ops {
		now := times[i] - d
		n := op{Count: o.Count}
		if now < latest {
			n.Back = latest - now
		} else {
			n.Jump, n.Off = now/b-latest/b, now%b
		}
		out.Ops = append(out.Ops, n)
		latest = max(latest, now)
	}
	return out, true
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Explanations: what the failing script shows, in its own numbers, before
// the check's general words.

// window describes the window of a call at now: its current bucket and
// the buckets it counts.
func (m *model) describe(now uint64) string {
	cur := m.bucketAt(now)
	first := uint64(0)
	if cur >= m.k-1 {
		first = cur - (m.k - 1)
	}
	return fmt.Sprintf("at nowNs=%s the current bucket is %s, so the window counts buckets %s to %s", check.U(now), check.U(cur), check.U(first), check.U(cur))
}

// modelAt replays s on the model up to (not including) call last and
// returns it with call last's time.
func modelAt(s script, last int) (*model, uint64) {
	m, latest := walk(s, last, nil)
	return m, s.Ops[last].at(latest, m.bucketNs)
}

// bucketsWhere lists the buckets holding accepted calls that pick selects
// when cur is the current bucket, with their calls.
func bucketsWhere(m *model, cur uint64, pick func(m *model, id, cur uint64) bool) string {
	var ids []uint64
	for id, c := range m.accepted {
		if c > 0 && id <= cur && pick(m, id, cur) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	var parts []string
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("bucket %s (%d accepted)", check.U(id), m.accepted[id]))
	}
	return strings.Join(parts, ", ")
}

func explainStale(s script, t check.Trace, why string) string {
	return explainBuckets(s, t, left, "Here %s: %s left the window and must count no more. %s", why)
}

func explainEdge(s script, t check.Trace, why string) string {
	return explainBuckets(s, t, onEdge, "Here %s; on its edge: %s. %s", why)
}

// explainBuckets explains a failure by the buckets holding accepted calls
// that pick selects at the failing call: form is given the window there,
// those buckets and why.
func explainBuckets(s script, t check.Trace, pick func(m *model, id, cur uint64) bool, form, why string) string {
	last := t.Last()
	if last < 0 {
		return why
	}
	m, now := modelAt(s, last)
	return fmt.Sprintf(form, m.describe(now), bucketsWhere(m, m.bucketAt(now), pick), why)
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
	return fmt.Sprintf("Here %s %s refused: the window already held limit=%s calls. Made as Count calls instead, the same script passes: the refusals are what changed the count. %s",
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
	return fmt.Sprintf("Here %s. Made at the latest time instead, the same calls pass: the steps back are what went wrong. %s", strings.Join(backs, ", "), why)
}

func explainOverflow(s script, t check.Trace, why string) string {
	return "Moved down to small times, by whole buckets and windows, the same calls pass: it is the size of the values that went wrong. " + why
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
