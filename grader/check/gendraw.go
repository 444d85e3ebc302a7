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

// DrawTries is DrawUntil with at most tries draws: a script's next call,
// drawn until it keeps to the domain's rules where the rules may leave no
// room for one just then. It returns the first draw ok accepts, or the
// last draw and false if ok accepted none.
func DrawTries[S any](r *rand.Rand, tries int, draw func(*rand.Rand) S, ok func(S) bool) (s S, accepted bool) {
	for range tries {
		if s = draw(r); ok(s) {
			return s, true
		}
	}
	return s, false
}
