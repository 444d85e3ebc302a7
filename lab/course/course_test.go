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

// The weeks run 1, 2, 3, ... in order, none missing, none twice, each with
// a slug of its own.
func TestWeeksRunWithoutAGap(t *testing.T) {
	slugs := map[string]bool{}
	for i, w := range course.Weeks() {
		if w.Number != i+1 || w.Lesson.Week != w.Number {
			t.Errorf("lesson %d of the course is week %d (lesson says %d), want week %d", i+1, w.Number, w.Lesson.Week, i+1)
		}
		if slugs[w.Lesson.Slug] {
			t.Errorf("two lessons called %s", w.Lesson.Slug)
		}
		slugs[w.Lesson.Slug] = true
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

func TestLessonOf(t *testing.T) {
	for _, e := range course.Exercises() {
		l, ok := course.LessonOf(e)
		if !ok || l.Week != e.Week {
			t.Errorf("LessonOf(%s) = week %d, %v; want week %d, true", e.ID, l.Week, ok, e.Week)
		}
	}
	if l, ok := course.LessonOf(course.Exercise{ID: "nope", Week: 99}); ok {
		t.Errorf("LessonOf(week 99) = %q, true; want false", l.Slug)
	}
}

// What Weeks and LessonBySlug return is the caller's: changing it leaves
// the catalogue as declared.
func TestLessonsAreCopies(t *testing.T) {
	w := course.Weeks()[0]
	if len(w.Lesson.Mounts) == 0 || len(w.Lesson.Contents) == 0 {
		t.Fatalf("week %d declares no mount or no contents", w.Number)
	}
	w.Lesson.Mounts[0].Viz = "changed"
	w.Lesson.Contents[0].ID = "changed"
	for _, l := range []course.Lesson{course.Weeks()[0].Lesson, must(course.LessonBySlug(w.Lesson.Slug))} {
		if l.Mounts[0].Viz == "changed" || l.Contents[0].ID == "changed" {
			t.Errorf("changing a returned lesson changed the catalogue: %+v", l)
		}
	}
	l := must(course.LessonBySlug(w.Lesson.Slug))
	l.Mounts[0].Viz = "changed"
	if course.Weeks()[0].Lesson.Mounts[0].Viz == "changed" {
		t.Error("changing the lesson LessonBySlug returned changed the catalogue")
	}
}

func must(l course.Lesson, ok bool) course.Lesson {
	if !ok {
		panic("no such lesson")
	}
	return l
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
	// week 3: Nested limits, fair queuing and policy
	//   Nested limits (hierarchy)
	//   Deficit round robin (fairqueue)
	//   The gateway's policy (gateway)
	// week 4: Adaptive backpressure
	//   Backpressure governor (governor)
	//   Gradient concurrency limit (gradient2)
	// week 5: Three throttles, one verdict
	//   Breaker, rate limit, congestion (throttle)
	//   Failure-driven circuit breaker (breaker)
}
