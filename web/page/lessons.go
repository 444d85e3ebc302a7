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
