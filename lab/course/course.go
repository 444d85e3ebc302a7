package course

import "slices"

// Exercise is one graded package: it exists as a stub in exercises/<ID>
// and as the reference in solutions/<ID>.
type Exercise struct {
	ID      string // package name, e.g. "tokenbucket"
	Week    int    // the week whose lesson introduces it
	Title   string // e.g. "Token bucket"
	Summary string // one sentence: what the learner builds
}

// Lesson is the reading for one week, declared once: its table of contents
// and the live visualizations its page mounts are here, and the web pages,
// the assets they load and their tests all follow from them. The prose
// itself is web/page's (a templ component per lesson, by Slug).
type Lesson struct {
	Week     int
	Slug     string // URL path element, e.g. "week-1"
	Title    string
	Summary  string
	Contents []Section // the page's sections, in page order
	Mounts   []Mount   // the page's live visualizations, in page order
}

// Section is one entry of a lesson's table of contents.
type Section struct {
	ID    string // the id of the section's h2 on the lesson's page
	Title string
}

// Mount is one live visualization on a lesson's page.
type Mount struct {
	// ID names the mount within its lesson: the prose places it by this
	// name, and the page marks it data-testid="viz-<ID>".
	ID string
	// Viz is the visualization: the name of its script and stylesheet
	// under web/static/viz/ and the data-viz its script looks for.
	Viz string
	// Preset is the scenario it opens with; "" means the visualization's
	// own default.
	Preset string
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
		ID: "hierarchy", Week: 3, Title: "Nested limits",
		Summary: "A tree of token buckets, session within account within firm, where a message takes a token at every level or at none.",
	},
	{
		ID: "fairqueue", Week: 3, Title: "Deficit round robin",
		Summary: "Per-session queues served in turn by deficit round robin, so that commands of different costs share a busy engine fairly.",
	},
	{
		ID: "gateway", Week: 3, Title: "The gateway's policy",
		Summary: "The policy around the throttle: orders and cancels on budgets of their own, rejects that say when to retry, silence then disconnect under a flood, limits per session class reloaded live.",
	},
	{
		ID: "governor", Week: 4, Title: "Backpressure governor",
		Summary: "An offer that slow-starts, backs off in proportion to the failures and remembers where it hit the wall, read from counter deltas.",
	},
	{
		ID: "gradient2", Week: 4, Title: "Gradient concurrency limit",
		Summary: "A concurrency limit that follows the gradient between a long and a short RTT, after Netflix's Gradient2Limit.",
	},
	{
		ID: "throttle", Week: 5, Title: "Breaker, rate limit, congestion",
		Summary: "An operator's circuit breaker, a per-address sliding-window limit with overrides and a whitelist, and congestion that moves the global limit, applied in the one order the code follows.",
	},
	{
		ID: "breaker", Week: 5, Title: "Failure-driven circuit breaker",
		Summary: "Closed, open and half-open, tripped by consecutive failures, with generations so that a slow call's late report cannot close or reopen it.",
	},
}

var lessons = []Lesson{
	{
		Week: 1, Slug: "week-1", Title: "Token buckets and GCRA",
		Summary: "Burst and rate, the four traps of refilling, and the same limiter kept as one timestamp.",
		Contents: []Section{
			{"why", "Why throttle"},
			{"bucket", "The token bucket"},
			{"units", "Exact units"},
			{"traps", "Four traps"},
			{"now", "Where now comes from"},
			{"gcra", "GCRA"},
			{"rounding", "The rounding catch"},
			{"exercises", "Exercises"},
		},
		Mounts: []Mount{{ID: "naive-refill", Viz: "limiters", Preset: "naive-refill"}},
	},
	{
		Week: 2, Slug: "week-2", Title: "Windows: fixed, sliding log, bucketed",
		Summary: "Counting messages in a window, why fixed windows leak 2N at the edge, and what buckets buy.",
		Contents: []Section{
			{"any-second", "“In any one second”"},
			{"fixed", "Fixed window"},
			{"log", "Sliding log"},
			{"bucketed", "Bucketed sliding window"},
			{"interpolated", "The interpolated estimate"},
			{"hierarchy", "Limits that nest"},
			{"policy", "Policy around the algorithm"},
			{"exercises", "Exercises"},
		},
		Mounts: []Mount{{ID: "edge-attack", Viz: "limiters", Preset: "edge-attack"}},
	},
	{
		Week: 3, Slug: "week-3", Title: "Nested limits, fair queuing and policy",
		Summary: "Limits that nest from session to firm, sharing a busy engine fairly between sessions, and the decisions around the algorithm that make a throttle help or hurt.",
		Contents: []Section{
			{"nest", "Limits that nest"},
			{"all-or-nothing", "All or nothing"},
			{"unexplained", "The unexplained throttle"},
			{"contention", "Contention at the engine"},
			{"round-robin", "Round robin"},
			{"drr", "Deficit round robin"},
			{"fair", "What “fair” means"},
			{"rulebook", "Arrival order or fair queuing"},
			{"policy", "The policy around it"},
			{"what-counts", "What counts"},
			{"where", "Where the throttle runs"},
			{"client", "What the client sees"},
			{"config", "Configuration by session class"},
			{"exercises", "Exercises"},
		},
		Mounts: []Mount{
			{ID: "hierarchy-leak", Viz: "hierarchy"},
			{ID: "contention", Viz: "fairqueue"},
			{ID: "policy", Viz: "gateway"},
		},
	},
	{
		Week: 4, Slug: "week-4", Title: "Adaptive backpressure",
		Summary: "Finding what a target can take from its failures and its latency: slow start, proportional back-off, congestion memory and the RTT gradient.",
		Contents: []Section{
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
		Mounts: []Mount{
			{ID: "governor", Viz: "governor", Preset: "healthier"},
			{ID: "gradient2", Viz: "gradient2"},
		},
	},
	{
		Week: 5, Slug: "week-5", Title: "Three throttles, one verdict",
		Summary: "An operator's circuit breaker, a per-address rate limit and congestion throttling, the order in which they decide, one snapshot of all three, and the failure-driven breaker beside the operator's.",
		Contents: []Section{
			{"three", "Three systems, one write"},
			{"operator-breaker", "The operator's circuit breaker"},
			{"rate-limit", "The per-address rate limit"},
			{"congestion", "Congestion throttling"},
			{"precedence", "Which one decides"},
			{"examples", "Worked examples"},
			{"status", "One snapshot"},
			{"failure-breaker", "The failure-driven breaker"},
			{"generations", "Generations"},
			{"storm", "The storm it prevents"},
			{"which", "Which breaker when"},
			{"exercises", "Exercises"},
		},
		Mounts: []Mount{
			{ID: "console", Viz: "throttle", Preset: "busy-day"},
			{ID: "breaker", Viz: "breaker", Preset: "outage"},
		},
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
// The slices are copies.
func Weeks() []Week {
	var weeks []Week
	for _, l := range lessons {
		w := Week{Number: l.Week, Lesson: l.clone()}
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
			return l.clone(), true
		}
	}
	return Lesson{}, false
}

// LessonOf returns the lesson of the week that introduces e and reports
// whether there is one.
func LessonOf(e Exercise) (Lesson, bool) {
	for _, l := range lessons {
		if l.Week == e.Week {
			return l.clone(), true
		}
	}
	return Lesson{}, false
}

// clone returns l with its own copies of its slices, so that no caller can
// change the catalogue.
func (l Lesson) clone() Lesson {
	l.Contents = slices.Clone(l.Contents)
	l.Mounts = slices.Clone(l.Mounts)
	return l
}
