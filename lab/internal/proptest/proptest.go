// Package proptest holds what the lab's property tests share: gopter
// properties with a fixed seed, so that a failure prints the same
// counterexample on every run.
package proptest

import (
	"testing"

	"github.com/leanovate/gopter"
)

// Properties returns properties that each pass only after runs successful
// tests, drawn from seed. It logs the seed: change it to explore.
func Properties(t testing.TB, seed int64, runs int) *gopter.Properties {
	t.Helper()
	t.Logf("gopter seed %d", seed)
	params := gopter.DefaultTestParametersWithSeed(seed)
	params.MinSuccessfulTests = runs
	return gopter.NewProperties(params)
}
