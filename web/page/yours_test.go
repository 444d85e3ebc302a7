package page

import (
	"strconv"
	"testing"

	"ratelab/internal/weekbuild"
	"ratelab/lab/course"
)

// A class lesson says where the learner's build of Yours is only when its
// visualizations run (its week's build or lab.wasm there): the line is kept up to date by
// classyours.js, which loads with them; without them it would say
// "asking…" for ever.
func TestClassYoursStateOnlyWithTheVisualizations(t *testing.T) {
	w := course.Weeks()[0]
	for _, c := range []struct {
		name   string
		assets Assets
		want   bool
	}{
		{"lab.wasm built", assetsWithout().WithClassYours("/class/api/yours"), true},
		{"the week's build only", assetsWithout("lab.wasm").WithClassYours("/class/api/yours"), true},
		{"no WebAssembly", assetsWithout("lab.wasm", weekbuild.Name(w.Number)).WithClassYours("/class/api/yours"), false},
		{"not class mode", assetsWithout(), false},
	} {
		doc := render(t, LessonPage(w, c.assets))
		state := doc.Find("[data-testid=yours-state]").Length() == 1
		script := doc.Find(`script[src$="viz/classyours.js"]`).Length() == 1
		if state != c.want || script != c.want {
			t.Errorf("%s: the state line %v, classyours.js %v; want both %v", c.name, state, script, c.want)
		}
	}
}

// A class lesson asks for the learner's build of its week (what its
// visualizations run); a class exercise page, whose Replay runs every
// week's simulations, for the build of every week.
func TestClassYoursAsksForTheWeeksBuild(t *testing.T) {
	a := assetsWithout().WithClassYours("/class/api/yours")
	for _, w := range course.Weeks() {
		doc := render(t, LessonPage(w, a))
		if got, want := doc.Find("[data-yours-api]").AttrOr("data-yours-api", ""), "/class/api/yours?week="+strconv.Itoa(w.Number); got != want {
			t.Errorf("%s: data-yours-api = %q; want %q", w.Lesson.Slug, got, want)
		}
	}
	doc := render(t, ClassExercisePage(ClassExerciseView{Exercise: course.Exercises()[0], Learner: true}, a))
	if got := doc.Find("[data-yours-api]").AttrOr("data-yours-api", ""); got != "/class/api/yours" {
		t.Errorf("the class exercise page's data-yours-api = %q; want /class/api/yours, every week's build", got)
	}
}
