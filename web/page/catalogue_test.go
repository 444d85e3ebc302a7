package page

import (
	"fmt"
	"io/fs"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/a-h/templ"

	"ratelab/lab/course"
	"ratelab/web"
)

// checkCatalogue walks a course (its weeks and its exercises) with its web
// side (pages, by lesson slug, and the static files) and returns what keeps
// it from showing whole: an exercise that no lesson links, or whose lesson
// has no task text for it; a lesson without prose or without a table of
// contents; a mount without an ID, a duplicate one, or a mount whose
// visualization's script or stylesheet is not in static.
func checkCatalogue(weeks []course.Week, exercises []course.Exercise, pages map[string]lessonPage, static fs.FS) []string {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	for _, e := range exercises {
		i := slices.IndexFunc(weeks, func(w course.Week) bool {
			return w.Number == e.Week && slices.ContainsFunc(w.Exercises, func(x course.Exercise) bool { return x.ID == e.ID })
		})
		if i < 0 {
			add("exercise %s: no lesson links it (week %d)", e.ID, e.Week)
			continue
		}
		if slug := weeks[i].Lesson.Slug; pages[slug].tasks[e.ID] == nil {
			add("exercise %s: lesson %s has no task text for it", e.ID, slug)
		}
	}
	for _, w := range weeks {
		l := w.Lesson
		if pages[l.Slug].prose == nil {
			add("lesson %s: no prose", l.Slug)
		}
		if len(l.Contents) == 0 {
			add("lesson %s: no table of contents", l.Slug)
		}
		for id := range pages[l.Slug].tasks {
			if !slices.ContainsFunc(w.Exercises, func(x course.Exercise) bool { return x.ID == id }) {
				add("lesson %s: task text for %s, an exercise it does not introduce", l.Slug, id)
			}
		}
		var ids []string
		for _, m := range l.Mounts {
			switch {
			case m.ID == "":
				add("lesson %s: a %s mount without an ID", l.Slug, m.Viz)
			case slices.Contains(ids, m.ID):
				add("lesson %s: two mounts called %s", l.Slug, m.ID)
			}
			ids = append(ids, m.ID)
			for _, name := range []string{vizJS(m.Viz), vizCSS(m.Viz)} {
				if fi, err := fs.Stat(static, name); err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
					add("lesson %s: mount %q shows %q, but static has no %s", l.Slug, m.ID, m.Viz, name)
				}
			}
		}
	}
	for slug := range pages {
		if !slices.ContainsFunc(weeks, func(w course.Week) bool { return w.Lesson.Slug == slug }) {
			add("web page for %s, which the course does not declare", slug)
		}
	}
	slices.Sort(problems)
	return problems
}

// The course as declared, with its pages and the embedded static files,
// has nothing missing.
func TestCatalogueIsComplete(t *testing.T) {
	for _, p := range checkCatalogue(course.Weeks(), course.Exercises(), lessonPages, web.Static("")) {
		t.Error(p)
	}
}

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
