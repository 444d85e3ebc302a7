package gradescope

import (
	"fmt"
	"strings"
	"time"

	"ratelab/grader/console"
	"ratelab/grader/report"
)

// Visibility is when Gradescope shows a result to the learner.
type Visibility string

// Gradescope's visibilities.
const (
	Visible        Visibility = "visible"         // at once
	Hidden         Visibility = "hidden"          // never
	AfterDueDate   Visibility = "after_due_date"  // once the due date has passed
	AfterPublished Visibility = "after_published" // once the grades are published
)

// Status is a Gradescope test's outcome: it knows only these two.
type Status string

// A test passed or it did not.
const (
	Passed Status = "passed"
	Failed Status = "failed"
)

// Results is the document Gradescope reads from
// /autograder/results/results.json.
type Results struct {
	Score            float64    `json:"score"`
	ExecutionTime    int        `json:"execution_time"` // seconds
	Output           string     `json:"output"`
	Visibility       Visibility `json:"visibility"`
	StdoutVisibility Visibility `json:"stdout_visibility"`
	Tests            []Test     `json:"tests"`
}

// Test is one check as a Gradescope test.
type Test struct {
	Name       string     `json:"name"`
	Number     string     `json:"number"` // exercise.check, from 1: Gradescope orders tests by it
	Score      float64    `json:"score"`
	MaxScore   float64    `json:"max_score"`
	Status     Status     `json:"status"`
	Output     string     `json:"output"`
	Tags       []string   `json:"tags"` // the exercise and the pitfall
	Visibility Visibility `json:"visibility"`
}

// From converts a report that took elapsed to grade. Every check is a test
// named "exercise: title [pitfall]", visible at once (the report is what a
// learner grading on their own machine sees anyway); the grader's own
// output (stdout) stays hidden. A check passed is "passed" with no output;
// any other outcome is "failed" (Gradescope has no other word), with the
// text the terminal report shows for it, or, for a skipped check, the
// reason it was skipped. Results.Output is the table of exercises, with
// the message of an exercise that does not build or is not started.
func From(r *report.Report, elapsed time.Duration) Results {
	res := Results{
		Score:            r.Score,
		ExecutionTime:    int(elapsed.Round(time.Second) / time.Second),
		Visibility:       Visible,
		StdoutVisibility: Hidden,
		Tests:            []Test{},
	}
	var out strings.Builder
	fmt.Fprintf(&out, "ratelab grade (seed %d): %s/%s\n", r.Seed, num(r.Score), num(r.MaxScore))
	for i, e := range r.Exercises {
		fmt.Fprintf(&out, "%s (%s): %s, %s/%s\n", e.Title, e.ID, e.Status, num(e.Score), num(e.MaxScore))
		if e.Message != "" && (e.Status == report.Error || e.Status == report.NotStarted) {
			fmt.Fprintf(&out, "  %s\n", strings.ReplaceAll(strings.TrimRight(e.Message, "\n"), "\n", "\n  "))
		}
		for j, c := range e.Checks {
			t := Test{
				Name:       fmt.Sprintf("%s: %s [%s]", e.ID, c.Title, c.Pitfall),
				Number:     fmt.Sprintf("%d.%d", i+1, j+1),
				Score:      c.Score,
				MaxScore:   c.MaxScore,
				Status:     Failed,
				Tags:       []string{e.ID, c.Pitfall},
				Visibility: Visible,
			}
			switch c.Status {
			case report.Passed:
				t.Status = Passed
			case report.Skipped:
				t.Output = "skipped: " + c.Message
			default:
				var b strings.Builder
				console.Printer{W: &b}.Check(c, r.Seed)
				t.Output = strings.TrimLeft(b.String(), "\n")
			}
			res.Tests = append(res.Tests, t)
		}
	}
	res.Output = out.String()
	return res
}

// Failure is the results of a grading that could not run at all (no Go
// toolchain, no files to grade): score 0 and the reason, so that
// Gradescope shows why instead of an empty result.
func Failure(reason string) Results {
	return Results{
		Output:           "could not grade: " + reason,
		Visibility:       Visible,
		StdoutVisibility: Hidden,
		Tests:            []Test{},
	}
}

// num prints points without a needless fraction: 5, 2.5.
func num(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", f), "0"), ".")
}
