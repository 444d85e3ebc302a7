// Package page renders the lab's HTML pages as templ components: the course
// home, the weekly lessons, an exercise with its latest grade, the class
// pages, and the error page.
//
// Components take plain values (course entries, grade reports, times) and
// never an echo.Context or a store: the server gathers the data and the
// component only draws it, so each one can be rendered and inspected in a
// test. Elements that tests look for carry a data-testid attribute.
//
// Each lesson is declared once, in lab/course (its title, table of contents
// and visualization mounts); its web side is one lessonPages entry here (the
// prose and the exercises' task texts, in the lesson's weekN.templ). The
// scripts and stylesheets a page loads follow from its lesson's mounts
// (web/static/viz/<viz>.js and .css); its head starts fetching and
// compiling the WebAssembly build they draw from (web/static/viz/early.js)
// before the rest of the page is laid out, and preloads the module the
// scripts import (viz/remote.js), so that nothing waits a round trip for
// the script that imports it. The API block of an exercise
// page is generated from the exercise's stub (see api.go).
//
// Edit the .templ files and run `go tool templ generate`; the generated
// *_templ.go files are committed beside them. After changing a stub in
// exercises/, run `go generate ./web/page`.
package page
