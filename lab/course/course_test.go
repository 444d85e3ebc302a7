package course_test

import (
	"fmt"
	"testing"

	"ratelab/lab/course"
)

func TestEveryExerciseBelongsToALesson(t *testing.T) {
	seen := map[string]bool{}
	for _, w := range course.Weeks() {
		for _, e := range w.Exercises {
			if e.Week != w.Number {
				t.Errorf("exercise %s listed in week %d, has Week %d", e.ID, w.Number, e.Week)
			}
			seen[e.ID] = true
		}
	}
	for _, e := range course.Exercises() {
		if !seen[e.ID] {
			t.Errorf("exercise %s (week %d) is in no week's lesson", e.ID, e.Week)
		}
	}
}

func TestLookup(t *testing.T) {
	if _, ok := course.Lookup("nope"); ok {
		t.Error(`Lookup("nope") found an exercise`)
	}
	for _, e := range course.Exercises() {
		got, ok := course.Lookup(e.ID)
		if !ok || got != e {
			t.Errorf("Lookup(%q) = %v, %v; want %v, true", e.ID, got, ok, e)
		}
	}
}

func ExampleWeeks() {
	for _, w := range course.Weeks() {
		fmt.Printf("week %d: %s\n", w.Number, w.Lesson.Title)
		for _, e := range w.Exercises {
			fmt.Printf("  %s (%s)\n", e.Title, e.ID)
		}
	}
	// Output:
	// week 1: Token buckets and GCRA
	//   Token bucket (tokenbucket)
	//   GCRA (gcra)
	// week 2: Windows: fixed, sliding log, bucketed
	//   Bucketed sliding window (slidingwindow)
	// week 4: Adaptive backpressure
	//   Backpressure governor (governor)
	//   Gradient concurrency limit (gradient2)
}
