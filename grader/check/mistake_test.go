package check

import "testing"

// TestMistakesGivesEachItsOwnModel checks that Mistakes sets each
// mistake's Impl to the model made from its own name, in the table's
// order, and keeps the rest of each row.
func TestMistakesGivesEachItsOwnModel(t *testing.T) {
	ms := Mistakes(func(name string) string { return "model of " + name }, []Mistake[string]{
		{Name: "a", Pitfall: "p", Says: "does a"},
		{Name: "b", Pitfall: "q", Says: "does b"},
	})
	want := []Mistake[string]{
		{Name: "a", Pitfall: "p", Says: "does a", Impl: "model of a"},
		{Name: "b", Pitfall: "q", Says: "does b", Impl: "model of b"},
	}
	if len(ms) != len(want) {
		t.Fatalf("got %d mistakes, want %d", len(ms), len(want))
	}
	for i := range want {
		if ms[i] != want[i] {
			t.Errorf("mistake %d: got %+v, want %+v", i, ms[i], want[i])
		}
	}
}
