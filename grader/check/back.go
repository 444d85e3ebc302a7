package check

import "math/rand"

// StepBack is how a domain's calls step back in time: with probability
// Chance a call steps back from the latest time of its script so far, by
// what By draws for the script's setup s. The zero StepBack never steps
// back, and a domain whose StepBack is zero allows no step back (see
// Allowed): its rules and its draws say the same thing once.
type StepBack[S any] struct {
	Chance float64
	By     func(r *rand.Rand, s S, latest uint64) uint64
}

// Allowed reports whether b steps back at all.
func (b StepBack[S]) Allowed() bool { return b.By != nil }

// Draw reports whether the next call steps back and, if it does, how far:
// what By draws. It draws one number for the chance and then By's, in
// that order, and nothing at all if b never steps back, so that a domain
// without steps back draws the same scripts as if it had no StepBack.
func (b StepBack[S]) Draw(r *rand.Rand, s S, latest uint64) (back uint64, ok bool) {
	if !b.Allowed() || !Chance(r, b.Chance) {
		return 0, false
	}
	return b.By(r, s, latest), true
}
