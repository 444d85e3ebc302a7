// Package page renders the lab's HTML pages as templ components: the course
// home, the weekly lessons, an exercise with its latest grade, and the error
// page.
//
// Components take plain values (course entries, grade reports, times) and
// never an echo.Context or a store: the server gathers the data and the
// component only draws it, so each one can be rendered and inspected in a
// test. Elements that tests look for carry a data-testid attribute.
//
// Edit the .templ files and run `go tool templ generate`; the generated
// *_templ.go files are committed beside them.
package page
