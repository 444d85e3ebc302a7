package page

import "strconv"

// classYoursJS is class mode's script that takes Yours from the signed-in
// learner's build (web/static/viz/classyours.js): it asks the endpoint
// the page names for the build's state, says it on the page, and hands
// the build to the visualizations' worker once it is ready.
const classYoursJS = "viz/classyours.js"

// WithClassYours returns a copy of a whose visualizations run Yours from
// the signed-in learner's build, whose state api answers (class mode's
// lesson pages; see internal/server/class_yours.go).
func (a Assets) WithClassYours(api string) Assets {
	a.yoursAPI = api
	return a
}

// classYours is the endpoint of the learner's build, "" for none: on a
// lesson's page, of the week's build (what the lesson's visualizations
// run); elsewhere, of the build of every week (what a replay runs).
func (a Assets) classYours() string {
	if a.yoursAPI == "" || a.week == 0 {
		return a.yoursAPI
	}
	return a.yoursAPI + "?week=" + strconv.Itoa(a.week)
}
