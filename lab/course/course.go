package course

// Exercise is one graded package: it exists as a stub in exercises/<ID>
// and as the reference in solutions/<ID>.
type Exercise struct {
	ID      string // package name, e.g. "tokenbucket"
	Week    int    // the week whose lesson introduces it
	Title   string // e.g. "Token bucket"
	Summary string // one sentence: what the learner builds
}

// Lesson is the reading for one week.
type Lesson struct {
	Week    int
	Slug    string // URL path element, e.g. "week-1"
	Title   string
	Summary string
}

// Week groups a lesson with the exercises it introduces.
type Week struct {
	Number    int
	Lesson    Lesson
	Exercises []Exercise
}

var exercises = []Exercise{
	{
		ID: "tokenbucket", Week: 1, Title: "Token bucket",
		Summary: "A bucket of capacity b refilled at r tokens per second, exact to the last unit for every uint64 input.",
	},
	{
		ID: "gcra", Week: 1, Title: "GCRA",
		Summary: "The token bucket rewritten as one theoretical arrival time, agreeing with it call for call at every rate.",
	},
	{
		ID: "slidingwindow", Week: 2, Title: "Bucketed sliding window",
		Summary: "At most N messages in the current bucket and the K-1 before it, in O(1) per call.",
	},
	{
		ID: "governor", Week: 4, Title: "Backpressure governor",
		Summary: "An offer that slow-starts, backs off in proportion to the failures and remembers where it hit the wall, read from counter deltas.",
	},
	{
		ID: "gradient2", Week: 4, Title: "Gradient concurrency limit",
		Summary: "A concurrency limit that follows the gradient between a long and a short RTT, after Netflix's Gradient2Limit.",
	},
}

var lessons = []Lesson{
	{
		Week: 1, Slug: "week-1", Title: "Token buckets and GCRA",
		Summary: "Burst and rate, the four traps of refilling, and the same limiter kept as one timestamp.",
	},
	{
		Week: 2, Slug: "week-2", Title: "Windows: fixed, sliding log, bucketed",
		Summary: "Counting messages in a window, why fixed windows leak 2N at the edge, and what buckets buy.",
	},
	{
		Week: 4, Slug: "week-4", Title: "Adaptive backpressure",
		Summary: "Finding what a target can take from its failures and its latency: slow start, proportional back-off, congestion memory and the RTT gradient.",
	},
}

// Exercises returns every exercise in course order. The slice is a copy.
func Exercises() []Exercise {
	return append([]Exercise(nil), exercises...)
}

// Lookup returns the exercise with the given id and reports whether it exists.
func Lookup(id string) (Exercise, bool) {
	for _, e := range exercises {
		if e.ID == id {
			return e, true
		}
	}
	return Exercise{}, false
}

// Weeks returns the course week by week, each with its lesson and exercises.
func Weeks() []Week {
	var weeks []Week
	for _, l := range lessons {
		w := Week{Number: l.Week, Lesson: l}
		for _, e := range exercises {
			if e.Week == l.Week {
				w.Exercises = append(w.Exercises, e)
			}
		}
		weeks = append(weeks, w)
	}
	return weeks
}

// LessonBySlug returns the lesson with the given slug and reports whether it exists.
func LessonBySlug(slug string) (Lesson, bool) {
	for _, l := range lessons {
		if l.Slug == slug {
			return l, true
		}
	}
	return Lesson{}, false
}
