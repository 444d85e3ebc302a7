package class_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/class"
	"ratelab/internal/store/storetest"
	"ratelab/lab/course"
)

func TestWriteCanvasCSV(t *testing.T) {
	tb, _ := course.Lookup("tokenbucket")
	gcra, _ := course.Lookup("gcra")
	gb := &class.Gradebook{
		Exercises: []course.Exercise{tb, gcra},
		Learners:  []string{"ada", "bob", "=cmd"},
		Cells: map[string]map[string]class.Cell{
			"ada": {"tokenbucket": {Graded: true, Best: 30, Latest: 20, Max: 35}, "gcra": {Graded: true, Best: 12.5, Latest: 12.5, Max: 25}},
			"bob": {"gcra": {Graded: true, Best: 0, Max: 25}},
		},
	}
	var b bytes.Buffer
	if err := gb.WriteCanvasCSV(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, b.String())
	}
	want := [][]string{
		{"Student", "ID", "SIS User ID", "SIS Login ID", "Section", "ratelab: " + tb.Title, "ratelab: " + gcra.Title},
		{"Points Possible", "", "", "", "", points(t, "tokenbucket"), points(t, "gcra")},
		{"ada", "", "", "ada", "", "30", "12.5"},
		{"bob", "", "", "bob", "", "", "0"},
		{"'=cmd", "", "", "'=cmd", "", "", ""},
	}
	if !slices.EqualFunc(rows, want, slices.Equal) {
		t.Errorf("Canvas CSV =\n%q\nwant\n%q", rows, want)
	}
}

// points is an exercise's maximum as the grader's plan of checks says.
func points(t *testing.T, id string) string {
	t.Helper()
	plan, err := grader.Plan(id)
	if err != nil {
		t.Fatal(err)
	}
	var max float64
	for _, c := range plan {
		max += c.MaxScore
	}
	if max == 0 {
		t.Fatalf("%s: a plan worth no points", id)
	}
	return strconv.FormatFloat(max, 'f', -1, 64)
}

// The CSV gives each exercise's max whether or not the learner was graded
// on it, and an empty total to a learner with nothing graded (0 read as
// graded and failed).
func TestWriteCSV(t *testing.T) {
	tb, _ := course.Lookup("tokenbucket")
	gcra, _ := course.Lookup("gcra")
	gb := &class.Gradebook{
		Exercises: []course.Exercise{tb, gcra},
		Learners:  []string{"ada", "bob", "cy"},
		Cells: map[string]map[string]class.Cell{
			"ada": {"tokenbucket": {Graded: true, Best: 30, Latest: 20, Max: 35}},
			"bob": {"gcra": {Graded: true, Best: 0, Latest: 0, Max: 25}},
			"cy":  {"tokenbucket": {State: "queued"}},
		},
	}
	var b bytes.Buffer
	if err := gb.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, b.String())
	}
	tbMax, gcraMax := points(t, "tokenbucket"), points(t, "gcra")
	want := [][]string{
		{"learner", "tokenbucket best", "tokenbucket latest", "tokenbucket max", "tokenbucket counted", "tokenbucket late",
			"gcra best", "gcra latest", "gcra max", "gcra counted", "gcra late", "total counted", "total best"},
		{"ada", "30", "20", "35", "30", "no", "", "", gcraMax, "", "", "30", "30"},
		{"bob", "", "", tbMax, "", "", "0", "0", "25", "0", "no", "0", "0"},
		{"cy", "", "", tbMax, "", "", "", "", gcraMax, "", "", "", ""},
	}
	if !slices.EqualFunc(rows, want, slices.Equal) {
		t.Errorf("CSV =\n%q\nwant\n%q", rows, want)
	}
}

// TestExportsNeutraliseFormulas: every learner name a spreadsheet would
// read as a formula, its first character ASCII or full-width, is written
// with a quote in front, in both exports; other names are left alone.
func TestExportsNeutraliseFormulas(t *testing.T) {
	tb, _ := course.Lookup("tokenbucket")
	names := map[string]string{
		"=cmd|' /C calc'!A0": "'=cmd|' /C calc'!A0",
		"+1+1":               "'+1+1",
		"-2+3":               "'-2+3",
		"@SUM(A1)":           "'@SUM(A1)",
		"\t=1":               "'\t=1",
		"\r=1":               "'\r=1",
		"＝HYPERLINK(\"x\")":  "'＝HYPERLINK(\"x\")",
		"＋1":                 "'＋1",
		"－1":                 "'－1",
		"＠SUM(A1)":           "'＠SUM(A1)",
		"﹦1":                 "'﹦1",
		"ada=1":              "ada=1",
		"Ève":                "Ève",
	}
	gb := &class.Gradebook{Exercises: []course.Exercise{tb}}
	for n := range names {
		gb.Learners = append(gb.Learners, n)
	}
	for _, write := range []struct {
		name string
		f    func(*bytes.Buffer) error
		skip int // rows before the learners'
	}{
		{"gradebook", func(b *bytes.Buffer) error { return gb.WriteCSV(b) }, 1},
		{"Canvas", func(b *bytes.Buffer) error { return gb.WriteCanvasCSV(b) }, 2},
	} {
		var b bytes.Buffer
		if err := write.f(&b); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&b).ReadAll()
		if err != nil {
			t.Fatalf("%s: not CSV: %v", write.name, err)
		}
		for i, row := range rows[write.skip:] {
			if want := names[gb.Learners[i]]; row[0] != want {
				t.Errorf("%s: the cell of %q = %q; want %q", write.name, gb.Learners[i], row[0], want)
			}
		}
	}
}

// The gradebook is kept as gradings finish: a finished grading does not
// read every stored result again (here one is made unreadable after the
// gradebook was first built), and the cell and pitfall counts follow.
func TestGradebookIsIncremental(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		f := newClassOn(t, db, class.Config{}, func(context.Context, grader.Options) (*report.Report, error) {
			return result(report.Failed, ""), nil
		})
		first := f.submit(t, f.ada, okSource)
		f.waitDone(t, first.ID)
		gb, err := f.c.Gradebook(t.Context())
		if err != nil || !gb.Cell("ada", "tokenbucket").Graded {
			t.Fatalf("Gradebook = %+v, %v", gb, err)
		}
		// The store's own handle: the same statement on either backend.
		if _, err := f.st.DB().Exec(fmt.Sprintf(`UPDATE jobs SET result = 'not json' WHERE submission_id = %d`, first.ID)); err != nil {
			t.Fatal(err)
		}
		second := f.submit(t, f.bob, okSource)
		e := f.waitDone(t, second.ID)
		if e.Cell == nil || !e.Cell.Graded || e.Graded != 2 || len(e.Pitfalls) != 1 || e.Pitfalls[0].Learners != 2 {
			t.Errorf("done event: cell %+v, graded %d, pitfalls %+v; want bob's graded cell, 2 graded, 2 learners on the pitfall", e.Cell, e.Graded, e.Pitfalls)
		}
		gb, err = f.c.Gradebook(t.Context())
		if err != nil || gb.Cell("bob", "tokenbucket").Latest != 1 || gb.Graded["tokenbucket"] != 2 {
			t.Errorf("Gradebook after a grading = %+v, %v", gb, err)
		}
	})
}
