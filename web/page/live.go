package page

import (
	"time"

	"github.com/a-h/templ"

	"ratelab/grader/report"
)

// liveJS is the single-learner lab's live script (web/static/live.js): it
// listens to the server's live websocket and updates the badges marked
// data-live-grade, the report marked data-live-report, and tells the
// visualizations of a new Yours build.
const liveJS = "live.js"

// WithLive returns a copy of a whose pages load live.js: the server does
// this in single-learner mode, where it watches exercises/ and pushes each
// new grade.
func (a Assets) WithLive() Assets { return a.with(liveJS) }

// WithEditor returns a copy of a whose exercise pages carry the editor
// over the learner's exercises/ (the server's files API): the server does
// this in single-learner mode, beside WithLive.
func (a Assets) WithEditor() Assets { return a.with(editorJS) }

// with returns a copy of a (its own map of files) that has file too.
func (a Assets) with(file string) Assets {
	files := make(map[string]bool, len(a.files)+1)
	for k, v := range a.files {
		files[k] = v
	}
	files[file] = true
	a.files = files
	return a
}

// editor reports whether the exercise pages carry the local editor.
func (a Assets) editor() bool { return a.files[editorJS] }

// live reports whether the pages load live.js.
func (a Assets) live() bool { return a.files[liveJS] }

// LiveBadge returns the CSS class and the text of the badge of a status, as
// the pages write it, for live.js to update a badge in place.
func LiveBadge(status report.Status) (class, label string) {
	return badgeClass(status), statusLabel(status)
}

// LivePoints is a score as the pages write it: "20 / 35".
func LivePoints(score, max float64) string { return points(score, max) }

// LiveWhen is a save time as the pages write it, and as <time datetime>.
func LiveWhen(t time.Time) (text, iso string) { return when(t), whenISO(t) }

// LiveReport is the exercise page's report of g (what the element marked
// data-live-report holds), for live.js to replace as checks come in.
func LiveReport(id string, g Graded) templ.Component { return graded(id, g) }
