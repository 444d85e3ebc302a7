package server_test

import (
	"encoding/csv"
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestClassGradebookCanvasCSV(t *testing.T) {
	f := newClass(t)
	f.submit(t, adaToken)
	f.finish(t, 30)
	prof := f.instructor(t)
	if r := prof.get("/class/dashboard"); !strings.Contains(r.body, `href="/class/gradebook.csv?format=canvas"`) {
		t.Error("the dashboard has no link to the Canvas export")
	}
	r := prof.get("/class/gradebook.csv?format=canvas")
	if r.code != http.StatusOK || r.header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		r.header.Get("Content-Disposition") != `attachment; filename="gradebook-canvas.csv"` {
		t.Fatalf("GET /class/gradebook.csv?format=canvas = %d, %q, %q; want 200, text/csv, an attachment",
			r.code, r.header.Get("Content-Type"), r.header.Get("Content-Disposition"))
	}
	rows, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
	if err != nil || len(rows) != 4 {
		t.Fatalf("Canvas CSV = %q, %v; want a header, Points Possible, ada and bob", r.body, err)
	}
	head := rows[0]
	if !slices.Equal(head[:5], []string{"Student", "ID", "SIS User ID", "SIS Login ID", "Section"}) {
		t.Errorf("header starts %q; want Canvas's five columns", head[:5])
	}
	col := slices.Index(head, "ratelab: Token bucket")
	if col < 0 {
		t.Fatalf("header %q has no token bucket column", head)
	}
	if rows[1][0] != "Points Possible" || rows[1][col] != "35" {
		t.Errorf("second row %q; want Points Possible with 35 for the token bucket", rows[1])
	}
	for _, row := range rows[2:] {
		want := map[string]string{"ada": "30", "bob": ""}[row[0]]
		if row[3] != row[0] || row[col] != want {
			t.Errorf("row %q: want SIS Login ID %s and token bucket %q", row, row[0], want)
		}
	}
	if r := prof.get("/class/gradebook.csv?format=xls"); r.code != http.StatusBadRequest {
		t.Errorf("GET /class/gradebook.csv?format=xls = %d, want 400", r.code)
	}
}
