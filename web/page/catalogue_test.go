package page

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/a-h/templ"

	"ratelab/lab/course"
)

// checkCatalogue finds each gap of a hand-made, incomplete course, and
// nothing in the same course made whole.
func TestCheckCatalogueFindsGaps(t *testing.T) {
	file := &fstest.MapFile{Data: []byte("x")}
	static := fstest.MapFS{"viz/good.js": file, "viz/good.css": file, "viz/half.js": file}
	prose := func(course.Lesson, Assets) templ.Component { return templ.NopComponent }
	task := func() templ.Component { return templ.NopComponent }
	linked := course.Exercise{ID: "linked", Week: 1}
	noTask := course.Exercise{ID: "notask", Week: 1}
	orphan := course.Exercise{ID: "orphan", Week: 3}
	weeks := []course.Week{
		{Number: 1, Exercises: []course.Exercise{linked, noTask}, Lesson: course.Lesson{
			Week: 1, Slug: "w1", Contents: []course.Section{{ID: "a", Title: "A"}},
			Mounts: []course.Mount{{ID: "m", Viz: "good"}, {ID: "m", Viz: "good"}, {ID: "h", Viz: "half"}, {Viz: "gone"}},
		}},
		{Number: 2, Lesson: course.Lesson{Week: 2, Slug: "w2"}},
	}
	pages := map[string]lessonPage{
		"w1": {prose: prose, tasks: map[string]func() templ.Component{"linked": task, "stray": task}},
		"w9": {prose: prose},
	}
	got := checkCatalogue(weeks, []course.Exercise{linked, noTask, orphan}, pages, static)
	want := []string{
		"exercise notask: lesson w1 has no task text for it",
		"exercise orphan: no lesson links it (week 3)",
		`lesson w1: a gone mount without an ID`,
		`lesson w1: mount "" shows "gone", but static has no viz/gone.css`,
		`lesson w1: mount "" shows "gone", but static has no viz/gone.js`,
		`lesson w1: mount "h" shows "half", but static has no viz/half.css`,
		"lesson w1: task text for stray, an exercise it does not introduce",
		"lesson w1: two mounts called m",
		"lesson w2: no prose",
		"lesson w2: no table of contents",
		"web page for w9, which the course does not declare",
	}
	if !slices.Equal(got, want) {
		t.Errorf("checkCatalogue(incomplete) =\n%q\nwant\n%q", got, want)
	}

	// Made whole, the same course passes.
	weeks[0].Lesson.Mounts = []course.Mount{{ID: "m", Viz: "good"}}
	weeks[1].Lesson.Contents = []course.Section{{ID: "b", Title: "B"}}
	orphan.Week = 2
	weeks[1].Exercises = []course.Exercise{orphan}
	pages = map[string]lessonPage{
		"w1": {prose: prose, tasks: map[string]func() templ.Component{"linked": task, "notask": task}},
		"w2": {prose: prose, tasks: map[string]func() templ.Component{"orphan": task}},
	}
	if got := checkCatalogue(weeks, []course.Exercise{linked, noTask, orphan}, pages, static); len(got) != 0 {
		t.Errorf("checkCatalogue(whole) = %q, want nothing", got)
	}
}
