package replay

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ratelab/grader/report"
)

// captured are the known-buggy fixtures (grader/testdata/fixtures/<exercise>/<name>)
// whose graded reports testdata/<exercise>-<name>.json hold: real
// counterexamples, as the grader writes them, for the replay tests.
var captured = [][2]string{
	{"governor", "streak-not-reset"},
	{"gradient2", "no-smoothing"},
	{"hierarchy", "charges-as-it-goes"},
	{"fairqueue", "keeps-credit"},
	{"gateway", "heartbeat-takes-token"},
	{"throttle", "counts-refused"},
	{"breaker", "no-generation"},
	// More shapes of call: SetState, Reload, Len, Available, State.
	{"throttle", "recovers-after"},
	{"throttle", "period-not-reset"},
	{"gateway", "flood-never-ends"},
	{"gateway", "reload-new-rate"},
	{"fairqueue", "lifo"},
	{"hierarchy", "truncating-refill"},
	{"breaker", "probes-unlimited"},
	{"governor", "no-dead-band"},
	{"gradient2", "decay-not-kept"},
}

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
			// A failed check's counterexample, and a passed one's whose
			// failure is charged under another pitfall: both are shown.
			if c.Status != report.Failed && c.Status != report.Passed || cx == nil || !Replayable(exercise, cx) {
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

// Replayed on the reference alone, every captured counterexample runs to
// its end with no step differing, and where the grader writes the
// exercise's answers as they are (weeks 3 and 5), the reference's answers
// read as the grade's wants, step for step. The governor's and
// Gradient2's grades explain their wants in words, and hierarchy's names
// the problem an Add's error must name: those are not compared.
func TestCapturedReplayOnTheReference(t *testing.T) {
	words := map[string]bool{"hierarchy": true, "fairqueue": true, "gateway": true, "throttle": true, "breaker": true}
	for _, f := range captured {
		b, err := os.ReadFile(filepath.Join("testdata", f[0]+"-"+f[1]+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var r report.Report
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		for _, c := range r.Exercises[0].Checks {
			cx := c.Counterexample
			if c.Status != report.Failed || cx == nil || !Replayable(f[0], cx) {
				continue
			}
			res := Run(f[0], *cx, Reference)
			if res.Error != "" || res.First != -1 || len(res.Steps) != len(cx.Steps) {
				t.Errorf("%s (%s): error %q, first %d, %d of %d steps", c.ID, f[1], res.Error, res.First, len(res.Steps), len(cx.Steps))
				continue
			}
			for i, s := range res.Steps {
				if w := cx.Steps[i].Want; words[f[0]] && !strings.HasPrefix(w, "-1 and an error naming") && s.Want != w {
					t.Errorf("%s (%s) step %d %s: the reference answers %q, the grade wants %q", c.ID, f[1], i+1, s.Call, s.Want, w)
				}
			}
		}
	}
}
