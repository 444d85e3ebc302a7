package main

import (
	"fmt"
	"strings"
	"testing"

	"ratelab/lab/course"
)

// labserver exercise check finds the course whole and says so; anything
// but "check" is a usage error.
func TestExerciseCheck(t *testing.T) {
	out, errOut, code := run(t, "exercise", "check")
	if want := fmt.Sprintf("the course is whole: %d exercises", len(course.Exercises())); code != 0 || !strings.Contains(out, want) {
		t.Errorf("exercise check: exit %d, stdout %q, stderr %q; want 0 and the course whole", code, out, errOut)
	}
	_, errOut, code = run(t, "exercise", "chek")
	if code != 2 || !strings.Contains(errOut, "usage: labserver exercise check") {
		t.Errorf("exercise chek: exit %d, stderr %q; want 2 and the usage", code, errOut)
	}
}

// labserver exercise new wants a name, a week and a title, and refuses an
// exercise the course has, writing nothing.
func TestExerciseNewRefuses(t *testing.T) {
	for _, args := range [][]string{{"exercise", "new"}, {"exercise", "new", "leakybucket"}, {"exercise", "new", "leakybucket", "--week", "1"}} {
		if _, errOut, code := run(t, args...); code != 2 || !strings.Contains(errOut, "usage: labserver exercise new NAME") {
			t.Errorf("%s: exit %d, stderr %q; want 2 and the usage", strings.Join(args, " "), code, errOut)
		}
	}
	out, errOut, code := run(t, "exercise", "new", "gcra", "--week", "1", "--title", "GCRA")
	if code != 2 || out != "" || !strings.Contains(errOut, "the course already has an exercise gcra") {
		t.Errorf("exercise new gcra: exit %d, stdout %q, stderr %q; want 2, nothing written, and why", code, out, errOut)
	}
}
