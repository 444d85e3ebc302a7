package grader_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ratelab/grader"
)

// TestReadmeListsEveryExercise keeps the README's table of exercises,
// points and pitfalls ("How grading works") equal to the suites: every
// gradable exercise has a row, with its total points and the set of its
// checks' pitfalls.
func TestReadmeListsEveryExercise(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(strings.TrimSpace(line), "|")
		if len(cells) != 5 || !strings.Contains(cells[3], "`") {
			continue
		}
		rows[strings.TrimSpace(cells[1])] = []string{strings.TrimSpace(cells[2]), cells[3]}
	}
	for _, e := range grader.Gradable() {
		plan, err := grader.Plan(e.ID)
		if err != nil {
			t.Fatal(err)
		}
		row, ok := rows[e.ID]
		if !ok {
			t.Errorf("README.md has no row for %s in the table of exercises, points and pitfalls", e.ID)
			continue
		}
		points := 0.0
		var want []string
		for _, c := range plan {
			points += c.MaxScore
			if !slices.Contains(want, c.Pitfall) {
				want = append(want, c.Pitfall)
			}
		}
		if got, _ := strconv.ParseFloat(row[0], 64); got != points {
			t.Errorf("README.md: %s has %s points; the suite has %v", e.ID, row[0], points)
		}
		var got []string
		for _, f := range strings.Split(row[1], ",") {
			got = append(got, strings.Trim(strings.TrimSpace(f), "`"))
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("README.md: %s's pitfalls are %q; the suite's are %q", e.ID, got, want)
		}
	}
}
