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
