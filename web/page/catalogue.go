package page

import (
	"fmt"
	"io/fs"
	"slices"

	"ratelab/lab/course"
)

// CatalogueProblems returns what keeps the course catalogue (lab/course)
// from showing whole on its pages, with static as the static files (see
// checkCatalogue); nothing when it is whole.
func CatalogueProblems(static fs.FS) []string {
	return checkCatalogue(course.Weeks(), course.Exercises(), lessonPages, static)
}

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
