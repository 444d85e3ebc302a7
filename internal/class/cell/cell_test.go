package cell_test

import (
	"fmt"
	"testing"

	"ratelab/internal/class/cell"
	"ratelab/internal/store"
)

func TestStandingText(t *testing.T) {
	for _, c := range []struct {
		s          cell.Standing
		text, note string
	}{
		{cell.Standing{}, "—", ""},
		{cell.Standing{State: store.Queued}, "grading…", ""},
		{cell.Standing{State: store.Running}, "grading…", ""},
		{cell.Standing{Graded: true, Best: 10, Latest: 10, Max: 25, State: store.Done}, "10 / 25", ""},
		{cell.Standing{Graded: true, Best: 25, Latest: 18, Max: 25, State: store.Done}, "25 / 25 (latest 18)", ""},
		{cell.Standing{Graded: true, Best: 12.5, Latest: 12.5, Max: 35}, "12.5 / 35", ""},
		// A regrade (or a newer submission) under way keeps the standing
		// score and says so beside it.
		{cell.Standing{Graded: true, Best: 10, Latest: 10, Max: 25, State: store.Queued}, "10 / 25", "grading…"},
		{cell.Standing{Graded: true, Best: 25, Latest: 18, Max: 25, State: store.Running}, "25 / 25 (latest 18)", "grading…"},
	} {
		if got := c.s.Text(); got != c.text {
			t.Errorf("%+v.Text() = %q, want %q", c.s, got, c.text)
		}
		if got := c.s.Note(); got != c.note {
			t.Errorf("%+v.Note() = %q, want %q", c.s, got, c.note)
		}
	}
}

func ExampleStanding_Text() {
	s := cell.Standing{Graded: true, Best: 31, Latest: 20, Max: 35, State: store.Running}
	fmt.Println(s.Text())
	fmt.Println(s.Note())
	// Output:
	// 31 / 35 (latest 20)
	// grading…
}
