package check

import "math/rand"

// DrawUntil draws with draw until ok accepts what it drew: a domain's
// setup, drawn until it keeps to the domain's rules.
func DrawUntil[S any](r *rand.Rand, draw func(*rand.Rand) S, ok func(S) bool) S {
	for {
		if s := draw(r); ok(s) {
			return s
		}
	}
}
