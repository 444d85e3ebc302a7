package labtest

import (
	"testing"

	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// TestPropertiesRunsAsManyTestsAsAskedFromTheSeed: a property passes
// after exactly runs tests, and the same seed draws the same values.
func TestPropertiesRunsAsManyTestsAsAskedFromTheSeed(t *testing.T) {
	draw := func() []int {
		var seen []int
		p := Properties(t, 42, 7)
		p.Property("records", prop.ForAll(func(v int) bool { seen = append(seen, v); return true }, gen.Int()))
		p.TestingRun(t)
		return seen
	}
	a, b := draw(), draw()
	if len(a) != 7 {
		t.Fatalf("%d tests run, want 7", len(a))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("run %d drew %d, then %d from the same seed", i, a[i], b[i])
		}
	}
}
