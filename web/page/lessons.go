package page

// tocEntry is one line of a lesson's table of contents.
type tocEntry struct {
	ID, Title string
}

// tocs lists each lesson's sections, by slug, in page order. The IDs are
// the h2 ids in the lesson's templ file.
var tocs = map[string][]tocEntry{
	"week-1": {
		{"why", "Why throttle"},
		{"bucket", "The token bucket"},
		{"units", "Exact units"},
		{"traps", "Four traps"},
		{"now", "Where now comes from"},
		{"gcra", "GCRA"},
		{"rounding", "The rounding catch"},
		{"exercises", "Exercises"},
	},
	"week-2": {
		{"any-second", "“In any one second”"},
		{"fixed", "Fixed window"},
		{"log", "Sliding log"},
		{"bucketed", "Bucketed sliding window"},
		{"interpolated", "The interpolated estimate"},
		{"hierarchy", "Limits that nest"},
		{"policy", "Policy around the algorithm"},
		{"exercises", "Exercises"},
	},
	"week-4": {
		{"churn", "Overload becomes churn"},
		{"attempt-plane", "The attempt plane"},
		{"slow-start", "Slow start"},
		{"back-off", "Back off by severity"},
		{"memory", "Congestion memory"},
		{"windows", "Windows from deltas"},
		{"honesty", "Measurement honesty"},
		{"gradient2", "Latency as the signal"},
		{"long-rtt", "The long RTT"},
		{"app-limited", "App-limited samples"},
		{"exercises", "Exercises"},
	},
}

// lessonViz returns the visualizations a page shows, by the page's slug:
// the names of their scripts under /static/viz/. Week 4 has its own two;
// every other lesson uses the limiters.
func lessonViz(slug string) []string {
	if slug == "week-4" {
		return []string{"governor", "gradient2"}
	}
	return []string{"limiters"}
}

// Code shown in the lessons. Kept here because templ text treats braces as
// expressions.
const (
	naiveRefill = `// Looks right, loses time: the remainder of the division
// is dropped, and last jumps to now anyway.
elapsed := now - b.last
b.tokens = min(b.capacity, b.tokens+elapsed*b.rate/1e9)
b.last = now`

	gcraSketch = `// T: emission interval, tau: (burst-1)*T, both in the same unit as now.
func (g *GCRA) tryAcquire(now uint64) bool {
	tat := max(g.tat, now) // an idle past is forgotten here
	if tat-now > g.tau {   // more than a burst ahead of schedule
		return false
	}
	g.tat = tat + g.t // one interval later for the next message
	return true
}`

	decideSketch = `// One window: frac is failed / resolved attempts in it.
switch {
case frac > high: // breach: cut in proportion, remember where it hurt
	offer, lastBad = max(floor, cur*clamp(1-frac, 0.25, 0.9)), cur
case frac > low: // dead band: noise, not a signal
	offer = cur
case lastBad == 0: // never congested: slow start
	offer = min(ceiling, 2*cur)
case cur < 0.75*lastBad: // far below the wall: x1.5, stop short
	offer = min(1.5*cur, 0.75*lastBad)
default: // near the wall: creep
	offer = min(ceiling, cur+max(1, 0.02*lastBad))
}`

	windowSketch = `// Each tick: the window is what changed since the last one.
failed, resolved := cumFailed-prevFailed, cumResolved-prevResolved
prevFailed, prevResolved = cumFailed, cumResolved
if resolved == 0 {
	return hold() // no evidence either way
}
frac := float64(failed) / float64(resolved)`

	gradientSketch = `// One sample: rtt is the short RTT, inflight its concurrency.
queue := 4.0             // the allowance for a little queueing
long := longRTT.Add(rtt) // the slow baseline
if inflight < limit/2 {
	return limit // app-limited: no news about capacity
}
gradient := max(0.5, min(1, tolerance*long/rtt))
next := limit*gradient + queue // the gradient pulls, the queue pushes
limit = limit*(1-smoothing) + next*smoothing
limit = clamp(limit, minLimit, maxLimit)`

	hierarchySketch = `// All or nothing: look at every level, then take from every level.
func allow(now uint64, levels []*Bucket) bool {
	for _, b := range levels {
		if b.Available(now) < 1 {
			return false // nothing taken anywhere
		}
	}
	for _, b := range levels {
		b.TryAcquire(now, 1) // cannot fail: one caller, checked above
	}
	return true
}`
)
