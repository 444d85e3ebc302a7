package page

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/lab/course"
)

// The exercise page carries the local editor only when the server serves
// the files API (Assets.WithEditor), between the task and the report, and
// hands it the compiler's lines of a latest grade that did not build, so
// that they are marked when it opens.
func TestExercisePageEditor(t *testing.T) {
	ex, _ := course.Lookup("gcra")
	if doc := render(t, ExercisePage(ex, nil, Assets{})); byTestID(doc, "editor").Length() != 0 {
		t.Error("the exercise page has an editor without Assets.WithEditor")
	}
	broken := report.Exercise{ID: "gcra", Week: 1, Title: "GCRA", MaxScore: 30}
	grader.SetCompileError(&broken, "exercises/gcra/gcra.go:3:2: undefined: x")
	doc := render(t, ExercisePage(ex, &Graded{Result: broken, SavedAt: saved}, Assets{}.WithEditor()))
	ed := one(t, doc, "editor")
	for attr, want := range map[string]string{
		"data-editor": "gcra", "data-editor-mode": "local", "data-editor-errors": "exercises/gcra/gcra.go:3:2: undefined: x",
	} {
		if got, _ := ed.Attr(attr); got != want {
			t.Errorf("%s = %q; want %q", attr, got, want)
		}
	}
	if _, ok := ed.Attr("data-editor-task"); ok {
		t.Error("the local editor shows the task beside it; the page shows it above")
	}
	if doc.Find(`script[src="/static/editor/editor.js"]`).Length() != 1 || doc.Find(`link[href="/static/editor/editor.css"]`).Length() != 1 {
		t.Error("the page does not load the editor's script and stylesheet once each")
	}
	order := doc.Find(`[data-testid="task"], [data-testid="editor"], [data-live-report]`)
	var ids []string
	order.Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("data-testid")
		ids = append(ids, id)
	})
	if len(ids) != 3 || ids[0] != "task" || ids[1] != "editor" || ids[2] != "" {
		t.Errorf("in document order: %q; want the task, the editor, the report", ids)
	}

	// Not graded yet, under make run: the page points at the editor too.
	if got := text(one(t, render(t, ExercisePage(ex, nil, Assets{}.WithLive().WithEditor())), "no-report")); !strings.Contains(got, "Write in Your code above, or save a file under exercises/gcra") {
		t.Errorf("no report, with the editor: %q; want it to point at Your code", got)
	}

	// A grade that built gives the editor no lines to mark.
	passed := report.Exercise{ID: "gcra", Status: report.Passed, Message: "main.go:1:1: not a compiler line"}
	if got := CompileLines(&passed); got != "" {
		t.Errorf("CompileLines(passed) = %q; want \"\"", got)
	}
}
