package page

import (
	"github.com/a-h/templ"

	"ratelab/lab/course"
)

// lessonPage is the web side of one lesson of the course catalogue
// (lab/course declares its title, table of contents and visualization
// mounts): the templ component of its prose, and the task of each exercise
// it introduces. Both live in the lesson's own templ file, weekN.templ,
// with its weekNPage.
type lessonPage struct {
	// prose is the lesson's body; it places the lesson's declared mounts
	// with vizMount.
	prose func(l course.Lesson, a Assets) templ.Component
	// tasks holds, by exercise ID, what each exercise of the week asks for,
	// in the learner's terms; the exact contract is the one the grader
	// checks, and the API is the stub's own (see exerciseAPI).
	tasks map[string]func() templ.Component
}

// lessonPages is the web side of every lesson, by slug. Each entry is
// declared in the lesson's own templ file.
var lessonPages = map[string]lessonPage{
	"week-1": week1Page,
	"week-2": week2Page,
	"week-3": week3Page,
	"week-4": week4Page,
	"week-5": week5Page,
}

// lessonProse returns the lesson's prose, or nil if there is none.
func lessonProse(l course.Lesson, a Assets) templ.Component {
	if p := lessonPages[l.Slug].prose; p != nil {
		return p(l, a)
	}
	return nil
}

// taskOf returns what exercise e asks for, from the lesson that introduces
// it, or nil if that lesson has no text for it.
func taskOf(e course.Exercise) templ.Component {
	l, ok := course.LessonOf(e)
	if !ok {
		return nil
	}
	if t := lessonPages[l.Slug].tasks[e.ID]; t != nil {
		return t()
	}
	return nil
}

// lessonHref is the address of the lesson that introduces e, or "/" if
// there is none.
func lessonHref(e course.Exercise) templ.SafeURL {
	if l, ok := course.LessonOf(e); ok {
		return templ.SafeURL("/lessons/" + l.Slug)
	}
	return "/"
}

// mountByID returns the lesson's mount called id and reports whether it
// declares one.
func mountByID(l course.Lesson, id string) (course.Mount, bool) {
	for _, m := range l.Mounts {
		if m.ID == id {
			return m, true
		}
	}
	return course.Mount{}, false
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

	treeSketch = `// Charging as you go: the bug. A refusal at the account or the firm
// comes after the session, and maybe the account, have already paid.
for id := node; id != Root; id = parent[id] {
	if !bucket[id].TryAcquire(now, n) {
		return false // the levels below keep what they were charged
	}
}

// Two walks up the same path: look at every level, then charge them all.
for id := node; id != Root; id = parent[id] {
	if bucket[id].Available(now) < n {
		return false // nothing taken anywhere
	}
}
for id := node; id != Root; id = parent[id] {
	bucket[id].TryAcquire(now, n) // cannot fail: one caller, checked
}
return true`
)
