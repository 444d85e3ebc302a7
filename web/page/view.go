package page

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"ratelab/grader/report"
)

// Assets says which optional static files the server can serve, so a page
// links only what exists and says plainly when the visualization is not
// built. The zero value means none of them.
type Assets struct {
	VizJS    bool // /static/viz/limiters.js
	VizCSS   bool // /static/viz/limiters.css
	WasmExec bool // /static/wasm_exec.js
	Wasm     bool // /static/lab.wasm

	GovernorJS   bool // /static/viz/governor.js
	GovernorCSS  bool // /static/viz/governor.css
	Gradient2JS  bool // /static/viz/gradient2.js
	Gradient2CSS bool // /static/viz/gradient2.css
}

// VizReady reports whether a live visualization can run: the script, Go's
// wasm_exec.js and the compiled lab.wasm are all there.
func (a Assets) VizReady() bool { return a.VizJS && a.WasmExec && a.Wasm }

// vizFiles reports whether the script and the stylesheet of the
// visualization called name (limiters, governor or gradient2, the file
// names under /static/viz/) exist.
func (a Assets) vizFiles(name string) (js, css bool) {
	switch name {
	case "limiters":
		return a.VizJS, a.VizCSS
	case "governor":
		return a.GovernorJS, a.GovernorCSS
	case "gradient2":
		return a.Gradient2JS, a.Gradient2CSS
	}
	return false, false
}

// vizReadyFor reports whether the visualization called name can run: its
// script, Go's wasm_exec.js and the compiled lab.wasm are all there.
func (a Assets) vizReadyFor(name string) bool {
	js, _ := a.vizFiles(name)
	return js && a.WasmExec && a.Wasm
}

// vizCommonJS is what every visualization script needs loaded first: the
// one lab.wasm loader of the page and the helpers they share. It ships
// with them, under /static/viz/.
const vizCommonJS = "/static/viz/common.js"

// vizScripts returns the scripts of the visualizations named, as paths
// under /static/, of those that can run, after vizCommonJS: none without
// lab.wasm.
func (a Assets) vizScripts(names []string) []string {
	var out []string
	for _, n := range names {
		if a.vizReadyFor(n) {
			out = append(out, "/static/viz/"+n+".js")
		}
	}
	if len(out) == 0 {
		return nil
	}
	return append([]string{vizCommonJS}, out...)
}

// vizStyles returns the stylesheets of the visualizations named that
// exist, as paths under /static/.
func (a Assets) vizStyles(names []string) []string {
	var out []string
	for _, n := range names {
		if _, css := a.vizFiles(n); css {
			out = append(out, "/static/viz/"+n+".css")
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
func statusLabel(status string) string {
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
	return status
}

// badgeClass is the CSS modifier for a status; unknown statuses look neutral.
func badgeClass(status string) string {
	switch status {
	case report.Passed, report.Failed, report.Error, report.NotStarted, report.Timeout, report.Skipped:
		return "badge badge--" + status
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
// (anything not passed) from the passed ones, keeping the report's order.
func splitChecks(cs []report.Check) (attention, passed []report.Check) {
	for _, c := range cs {
		if c.Status == report.Passed {
			passed = append(passed, c)
		} else {
			attention = append(attention, c)
		}
	}
	return attention, passed
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

// allocsFigure formats an optional allocs/op figure.
func allocsFigure(v *float64) string {
	if v == nil {
		return "—"
	}
	return num(*v)
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
