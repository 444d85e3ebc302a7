package replay

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"ratelab/grader/report"
)

// replayCaptured replays every failed check of a captured report
// (testdata/<exercise>-<fixture>.json, written by TestCapture) that
// carries its counterexample as data, with yours built from the same
// fixture, and checks that the replay agrees with the grade: Yours answers
// every step, and the first step where it differs from the reference is
// the step the grade says differs. It returns how many checks it replayed.
func replayCaptured(t *testing.T, exercise, fixture string, yours Impls) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", exercise+"-"+fixture+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var r report.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ex := range r.Exercises {
		for _, c := range ex.Checks {
			cx := c.Counterexample
			if c.Status != report.Failed || cx == nil || !Replayable(exercise, cx) {
				continue
			}
			n++
			first := -1
			for i, s := range cx.Steps {
				if s.Got != s.Want {
					first = i
					break
				}
			}
			res := Run(exercise, *cx, yours)
			if res.Error != "" || res.Yours != "" {
				t.Errorf("%s: replay error %q, yours %q", c.ID, res.Error, res.Yours)
				continue
			}
			if len(res.Steps) != len(cx.Steps) || res.First != first {
				t.Errorf("%s: replay of %d steps, first differing %d; want %d steps, step %d differing (the grade's)", c.ID, len(res.Steps), res.First, len(cx.Steps), first)
				for i, s := range res.Steps {
					t.Logf("  %d. %s  got %s  want %s  (grade: got %s want %s)", i+1, s.Call, s.Got, s.Want, cx.Steps[i].Got, cx.Steps[i].Want)
				}
			}
		}
	}
	if n == 0 {
		t.Errorf("%s/%s: no failed check with a replayable counterexample", exercise, fixture)
	}
	return n
}
