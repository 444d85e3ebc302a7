package report

import "testing"

func TestExerciseTotalAndGraded(t *testing.T) {
	e := Exercise{Score: 99, MaxScore: 99, Checks: []Check{{Score: 5, MaxScore: 5}, {Score: 0, MaxScore: 3}, {Score: 2.5, MaxScore: 2.5}}}
	e.Total()
	if e.Score != 7.5 || e.MaxScore != 10.5 {
		t.Fatalf("Total: %v/%v, want 7.5/10.5 (the checks' sums, not what was there)", e.Score, e.MaxScore)
	}
	if s := e.Graded(); s != Failed {
		t.Errorf("Graded short of full marks = %s, want failed", s)
	}
	e.Checks[1].Score = 3
	e.Total()
	if s := e.Graded(); s != Passed {
		t.Errorf("Graded with full marks = %s, want passed", s)
	}
}
