package page

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"ratelab/grader/report"
	"ratelab/internal/weekbuild"
	"ratelab/lab/course"
)

// Assets says which optional static files the server can serve, so a page
// links only what exists and says plainly when a visualization is not
// built. The zero value means none of them; FindAssets fills it.
type Assets struct {
	files    map[string]bool // names under /static/ that exist
	yoursAPI string          // class mode: the learner's build of Yours (see WithClassYours)
	week     int             // the lesson's week (see ofWeek); 0 on other pages
}

// Static files whose presence changes the pages, as names under /static/.
const (
	wasmExecJS  = "wasm_exec.js" // Go's loader, copied by `make wasm`
	labWasm     = "lab.wasm"     // the lab compiled by `make wasm`
	vizCommonJS = "viz/common.js"
	vizEarlyJS  = "viz/early.js"  // starts compiling the page's build from its head
	vizRemoteJS = "viz/remote.js" // imported by viz/common.js: preloaded from the head
)

// vizJS and vizCSS name the script and the stylesheet of the visualization
// viz (a course.Mount's Viz) under /static/: web/static/viz/<viz>.js and
// web/static/viz/<viz>.css. Nothing else names them.
func vizJS(viz string) string  { return "viz/" + viz + ".js" }
func vizCSS(viz string) string { return "viz/" + viz + ".css" }

// OptionalAssets returns the static files, as names under /static/, whose
// presence changes the pages: Go's wasm_exec.js, lab.wasm, each week's
// builds (internal/weekbuild: the reference's and Yours'), and the script
// and the stylesheet of every visualization a lesson of the course mounts.
func OptionalAssets() []string {
	names := []string{wasmExecJS, labWasm}
	for _, week := range weekbuild.Weeks() {
		names = append(names, weekbuild.Name(week), weekbuild.YoursName(week))
	}
	for _, viz := range vizNames(allMounts()) {
		names = append(names, vizJS(viz), vizCSS(viz))
	}
	return names
}

// FindAssets returns the Assets made of the files among OptionalAssets for
// which exists reports true.
func FindAssets(exists func(name string) bool) Assets {
	a := Assets{files: map[string]bool{}}
	for _, name := range OptionalAssets() {
		if exists(name) {
			a.files[name] = true
		}
	}
	return a
}

// allMounts returns the mounts of every lesson of the course.
func allMounts() []course.Mount {
	var ms []course.Mount
	for _, w := range course.Weeks() {
		ms = append(ms, w.Lesson.Mounts...)
	}
	return ms
}

// vizNames returns the visualizations the mounts show, each once, in order.
func vizNames(mounts []course.Mount) []string {
	var names []string
	for _, m := range mounts {
		if !slices.Contains(names, m.Viz) {
			names = append(names, m.Viz)
		}
	}
	return names
}

// ofWeek returns the Assets of week's lesson page: its visualizations draw
// the reference from the week's own build (see wasm).
func (a Assets) ofWeek(week int) Assets {
	a.week = week
	return a
}

// wasm returns the path of the build the page's visualizations draw the
// reference from: the week's own build (internal/weekbuild: much smaller
// than lab.wasm, and never rebuilt by a save) when the server has it, else
// lab.wasm; "" when there is neither. "Yours" runs from yoursWasm, or from
// the learner's build in class mode (web/static/viz/remote.js).
func (a Assets) wasm() string {
	if a.week > 0 && a.files[weekbuild.Name(a.week)] {
		return "/static/" + weekbuild.Name(a.week)
	}
	if a.files[labWasm] {
		return "/static/" + labWasm
	}
	return ""
}

// yoursWasm returns the path of the build the page's visualizations run
// Yours from: the week's Yours build (internal/weekbuild: that week's
// simulations and exercises alone) when the server has it, else lab.wasm.
func (a Assets) yoursWasm() string {
	if a.week > 0 && a.files[weekbuild.YoursName(a.week)] {
		return "/static/" + weekbuild.YoursName(a.week)
	}
	return "/static/" + labWasm
}

// vizReadyFor reports whether the visualization viz can run: its script,
// Go's wasm_exec.js and a build to draw it from (wasm) are all there.
func (a Assets) vizReadyFor(viz string) bool {
	return a.files[vizJS(viz)] && a.files[wasmExecJS] && a.wasm() != ""
}

// vizScripts returns the scripts, as paths, that a page with these mounts
// loads after Go's wasm_exec.js: none when no visualization can run (no
// lab.wasm, say); otherwise viz/common.js (the one lab.wasm loader of the
// page and the helpers the visualizations share; it ships with them), then
// the script of each visualization that can run.
func (a Assets) vizScripts(mounts []course.Mount) []string {
	var out []string
	for _, viz := range vizNames(mounts) {
		if a.vizReadyFor(viz) {
			out = append(out, "/static/"+vizJS(viz))
		}
	}
	if len(out) == 0 {
		return nil
	}
	return append([]string{"/static/" + vizCommonJS}, out...)
}

// vizStyles returns the stylesheets, as paths, of the visualizations the
// mounts show that exist.
func (a Assets) vizStyles(mounts []course.Mount) []string {
	var out []string
	for _, viz := range vizNames(mounts) {
		if a.files[vizCSS(viz)] {
			out = append(out, "/static/"+vizCSS(viz))
		}
	}
	return out
}

// Graded is one exercise's result from the latest saved report that graded it.
type Graded struct {
	Result  report.Exercise
	SavedAt time.Time // shown as is: pass it in the zone the reader expects
	Seed    int64
}

// Home is what the home page shows: for each exercise ID, its latest grade
// (absent when never graded).
type Home struct {
	Grades map[string]Graded
}

// statusLabel is how a status reads on the page.
func statusLabel(status report.Status) string {
	switch status {
	case report.Passed:
		return "passed"
	case report.Failed:
		return "failed"
	case report.Error:
		return "error"
	case report.NotStarted:
		return "not started"
	case report.Timeout:
		return "timed out"
	case report.Skipped:
		return "skipped"
	case "":
		return "unknown"
	}
	return string(status)
}

// badgeClass is the CSS modifier for a status; unknown statuses look neutral.
func badgeClass(status report.Status) string {
	switch status {
	case report.Passed, report.Failed, report.Error, report.NotStarted, report.Timeout, report.Skipped:
		return "badge badge--" + string(status)
	}
	return "badge"
}

// num formats a score or a measurement without noise: 20, 12.5, 31.4.
func num(f float64) string {
	if f == float64(int64(f)) && f < 1e15 && f > -1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', 1, 64)
}

// points is "score / max".
func points(score, max float64) string { return num(score) + " / " + num(max) }

// percent is score/max as an integer percentage for a progress bar.
func percent(score, max float64) string {
	if max <= 0 {
		return "0"
	}
	return strconv.Itoa(int(100*score/max + 0.5))
}

// when formats a save time for people.
func when(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("2 Jan 2006, 15:04 MST")
}

// whenISO formats a save time for <time datetime>.
func whenISO(t time.Time) string { return t.Format(time.RFC3339) }

// failingStep returns the index of the step a counterexample ends on: the
// last step whose got differs from want, or -1 if every step agrees.
func failingStep(cx *report.Counterexample) int {
	if cx == nil {
		return -1
	}
	for i := len(cx.Steps) - 1; i >= 0; i-- {
		if cx.Steps[i].Got != cx.Steps[i].Want {
			return i
		}
	}
	return -1
}

// splitChecks separates the checks that need the learner's attention
// (anything judged and not passed), those of a live grading still to come
// (toCome) and the passed ones, keeping the report's order.
func splitChecks(cs []report.Check) (attention, waiting, passed []report.Check) {
	for _, c := range cs {
		switch {
		case c.Status == report.Passed:
			passed = append(passed, c)
		case toCome(c):
			waiting = append(waiting, c)
		default:
			attention = append(attention, c)
		}
	}
	return attention, waiting, passed
}

// toCome reports whether c is a check of a live grading still to run or
// being measured: it has no result yet.
func toCome(c report.Check) bool { return c.Status == report.Pending || c.Status == report.Measuring }

// countRun counts the checks that have a result.
func countRun(cs []report.Check) int {
	n := 0
	for _, c := range cs {
		if !toCome(c) {
			n++
		}
	}
	return n
}

// isBenchmark reports whether a check carries benchmark figures.
func isBenchmark(c report.Check) bool {
	return c.Kind == report.Benchmark || c.NsPerOp != nil || c.BudgetNs != nil
}

// nsFigure formats an optional ns/op figure.
func nsFigure(v *float64) string {
	if v == nil {
		return "—"
	}
	if *v >= 100 {
		return strconv.FormatFloat(*v, 'f', 0, 64) + " ns"
	}
	return num(*v) + " ns"
}

// nsAgainst is nsFigure of a figure measured against budget: with the
// digits that keep it on its side of the budget when fewer would not
// (report.Figure: 40.04 over 40 is "40.04 ns", not "40.0 ns").
func nsAgainst(v, budget *float64) string {
	if v == nil || budget == nil || *v == math.Trunc(*v) {
		return nsFigure(v)
	}
	prec := 1
	if *v >= 100 {
		prec = 0
	}
	return report.Figure(*v, *budget, 'f', prec) + " ns"
}

// allocsFigure formats an optional allocs/op figure, a rate: below one,
// with the digits that tell it from none ("0.5", "0.033", "0.00012") and
// from the most the budget allows ("0.01005", not "0.01").
func allocsFigure(v *float64) string {
	switch {
	case v == nil:
		return "—"
	case *v > 0 && *v < 1:
		return report.Figure(*v, report.MaxAllocsPerOp, 'g', 2)
	}
	return num(*v)
}

// siteKind is the kind of an allocation site, as it follows the site's
// rate: " (append)", or nothing.
func siteKind(kind string) string {
	if kind == "" {
		return ""
	}
	return " (" + kind + ")"
}

// overBudget reports whether a measured figure exceeds its budget.
func overBudget(ns, budget *float64) bool {
	return ns != nil && budget != nil && *ns > *budget
}

// nsClass colours a measured figure against its budget.
func nsClass(ns, budget *float64) string {
	switch {
	case ns == nil || budget == nil:
		return ""
	case *ns > *budget:
		return "over"
	}
	return "under"
}

// checkTestID is the data-testid of a check's element.
func checkTestID(id string) string { return "check-" + id }

// countPassed counts the checks that passed.
func countPassed(cs []report.Check) int {
	n := 0
	for _, c := range cs {
		if c.Status == report.Passed {
			n++
		}
	}
	return n
}

// plural is "1 check", "2 checks".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// gradeCommand is the command that grades one exercise.
func gradeCommand(id string) string {
	return "go run ./cmd/labserver grade --exercise " + id
}

// title is a page's <title>.
func title(parts ...string) string {
	return strings.Join(append(parts, "ratelab"), " · ")
}

// run is a piece of a text: a number, or the text between numbers.
type run struct {
	text   string
	number bool
}

// numberRE is a number as the reports write them: digits, with the _ , or
// . inside it (333_333_334, 1,000, 0.5).
var numberRE = regexp.MustCompile(`\d(?:[\d_,.]*\d)?`)

// numberRuns cuts text into its numbers and the text between them, in
// order.
func numberRuns(text string) []run {
	var out []run
	at := 0
	for _, m := range numberRE.FindAllStringIndex(text, -1) {
		if m[0] > at {
			out = append(out, run{text: text[at:m[0]]})
		}
		out = append(out, run{text: text[m[0]:m[1]], number: true})
		at = m[1]
	}
	if at < len(text) {
		out = append(out, run{text: text[at:]})
	}
	return out
}
