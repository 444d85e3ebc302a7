package page

import (
	"context"

	"github.com/a-h/templ"
)

// Class mode serves the lab's own pages (a lesson, an exercise's task, an
// error) to signed-in learners, who have no exercises/ folder and no make
// grade: their links must lead to the class's pages and their words speak
// of the editor. Which one a page is for is a property of the request, not
// of the page, and the words and links sit deep inside components (a
// lesson's prose, an exercise's task) that take no mode: so it travels in
// the rendering context, set once by the server for every /class request
// (InClass), and read by the few helpers below. It is the one value the
// components read from the context.

type classKey struct{}

// InClass returns ctx marked for class mode: the pages rendered with it
// link the class's pages (/class, /class/lessons, /class/exercises) and
// speak of the editor, Check and Submit.
func InClass(ctx context.Context) context.Context {
	return context.WithValue(ctx, classKey{}, true)
}

// inClass reports whether ctx renders class mode's pages.
func inClass(ctx context.Context) bool {
	v, _ := ctx.Value(classKey{}).(bool)
	return v
}

// homeURL is the course's home: the local lab's, or the class's (which
// sends each user to their own page).
func homeURL(ctx context.Context) templ.SafeURL {
	if inClass(ctx) {
		return "/class"
	}
	return "/"
}

// lessonURL links a lesson, at anchor if not "": the class serves its own
// (/class/lessons/, whose Yours is the learner's code).
func lessonURL(ctx context.Context, slug, anchor string) templ.SafeURL {
	u := "/lessons/" + slug
	if inClass(ctx) {
		u = "/class" + u
	}
	if anchor != "" {
		u += "#" + anchor
	}
	return templ.SafeURL(u)
}

// exerciseURL links an exercise's page: in class mode the one with the
// learner's editor, Check and Submit.
func exerciseURL(ctx context.Context, id string) templ.SafeURL {
	if inClass(ctx) {
		return templ.SafeURL("/class/exercises/" + id)
	}
	return templ.SafeURL("/exercises/" + id)
}

// yoursRuns ends a visualization's caption: what its Yours runs.
func yoursRuns(ctx context.Context, id string) string {
	if inClass(ctx) {
		return "Yours runs your latest code of " + id + " that compiled."
	}
	return "Yours runs the code in exercises/" + id + "."
}
