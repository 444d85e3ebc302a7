// Package labtest holds what the lab's tests share: gopter properties
// with a fixed seed, so that a failure prints the same counterexample on
// every run, and the table test of a configuration's validation.
package labtest

import (
	"strings"
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

// ConfigCase is one row of a configuration's validation table: Modify
// changes a valid configuration, and Want is a part of the error it must
// then get ("" for none).
type ConfigCase[C any] struct {
	Name   string
	Modify func(*C)
	Want   string
}

// Validation runs each case, as a subtest, on a copy of valid: validate
// must return an error that contains Want (nil when Want is ""), and
// build (the package's New) must fail exactly when validate does.
func Validation[C any](t *testing.T, valid C, cases []ConfigCase[C], validate func(C) error, build func(C) error) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			c := valid
			tt.Modify(&c)
			err := validate(c)
			switch {
			case tt.Want == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tt.Want != "" && (err == nil || !strings.Contains(err.Error(), tt.Want)):
				t.Errorf("Validate() = %v, want an error about %q", err, tt.Want)
			}
			if err2 := build(c); (err2 == nil) != (err == nil) {
				t.Errorf("New error %v, Validate error %v: want both or neither", err2, err)
			}
		})
	}
}
