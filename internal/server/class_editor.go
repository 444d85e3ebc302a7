package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"ratelab/internal/class"
	"ratelab/internal/store"
	"ratelab/lab/course"
	"ratelab/web/page"
)

// exercisePage is GET /class/exercises/:id: the exercise's task and, for a
// learner, the editor of their draft (page.ClassExercisePage). An
// instructor reads the task without an editor: they have no drafts, and
// their view of learners' code is the dashboard's.
func (d *draftHandlers) exercisePage(c echo.Context) error {
	u, _ := currentUser(c)
	id := c.Param("id")
	ex, ok := course.Lookup(id)
	if !ok || !class.Gradable(id) {
		return notFound("There is no exercise %q in this class.", id)
	}
	v := page.ClassExerciseView{Name: u.Name, CSRF: csrfToken(c), Exercise: ex, Learner: u.Role == store.Learner, Lessons: d.builds != nil}
	if v.Learner {
		var err error
		if v.Due, err = d.learnerDue(c.Request().Context(), u.Name, id); err != nil {
			return err
		}
	}
	return render(c, http.StatusOK, page.ClassExercisePage(v, d.userAssets(u)))
}
