package target

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
)

// Change is a change of a target's capacity: from AtNs it moves in a
// straight line to Capacity, which it reaches at AtNs+RampNs (at once when
// RampNs is 0).
type Change struct {
	AtNs     uint64
	RampNs   uint64
	Capacity float64
}

// Profile describes a target. Capacities are numbers of concurrent
// attempts the target serves in one round.
type Profile struct {
	Name     string   // as Named knows it, e.g. "fragile"
	Title    string   // for people, e.g. "Fragile"
	Capacity float64  // capacity at time 0
	Changes  []Change // later changes, in time order

	// Collapse is how many served attempts each attempt beyond the capacity
	// costs: 0 for a robust target, which refuses the excess and serves the
	// rest; 1 for one that does as much harm to itself as the overload is
	// large. A round of n attempts against capacity c serves
	// min(n, c) - Collapse·max(0, n-c) of them, never fewer than 0.
	Collapse float64

	// Noise is the relative wobble of the capacity: each round scales it by
	// 1 + Noise·u, u drawn uniformly from [-1, 1].
	Noise float64
}

// CapacityAt returns the profile's nominal capacity at nowNs, without noise.
func (p Profile) CapacityAt(nowNs uint64) float64 {
	c := p.Capacity
	for _, ch := range p.Changes {
		switch {
		case nowNs < ch.AtNs:
			return c
		case nowNs-ch.AtNs >= ch.RampNs:
			c = ch.Capacity
		default:
			f := float64(nowNs-ch.AtNs) / float64(ch.RampNs)
			return c + (ch.Capacity-c)*f
		}
	}
	return c
}

// Target serves rounds of concurrent attempts according to a Profile, with
// seeded noise. The zero value is not usable: use New.
type Target struct {
	p   Profile
	rng *rand.Rand
}

// New returns a target following p, its noise drawn from seed.
func New(p Profile, seed uint64) *Target {
	return &Target{p: p, rng: rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))}
}

// Profile returns the profile the target follows.
func (t *Target) Profile() Profile { return t.p }

// Failures sends one round of n concurrent attempts to the target at nowNs
// and returns how many of them fail, between 0 and n. Each call draws the
// round's noise, so calls must come in the order of the run.
func (t *Target) Failures(nowNs uint64, n int) int {
	if n <= 0 {
		return 0
	}
	c := t.p.CapacityAt(nowNs) * (1 + t.p.Noise*(2*t.rng.Float64()-1))
	c = max(c, 0)
	attempts := float64(n)
	served := math.Floor(min(attempts, c) - t.p.Collapse*max(0, attempts-c))
	if served <= 0 {
		return n
	}
	return n - int(served)
}

// Profile names, in the order the lab offers them.
const (
	FragileName   = "fragile"
	RobustName    = "robust"
	HealthierName = "healthier"
	DegradesName  = "degrades"
)

// Names lists the profiles Named knows.
var Names = []string{FragileName, RobustName, HealthierName, DegradesName}

const second = 1_000_000_000

// ErrUnknown is returned by Named for a name it does not know.
var ErrUnknown = errors.New("target: unknown profile")

// unknownError is ErrUnknown, naming the profile asked for.
type unknownError string

func (e unknownError) Error() string { return ErrUnknown.Error() + " " + strconv.Quote(string(e)) }
func (e unknownError) Unwrap() error { return ErrUnknown }

// Named returns one of the lab's profiles, meant for a client whose
// ceiling is about 200 concurrent attempts and whose rounds are a tenth of
// a second:
//
//   - fragile: 30 attempts, and each attempt past them costs one served;
//   - robust: 400 attempts, the excess refused cleanly;
//   - healthier: 50 attempts while its caches are cold, rising to 170
//     between 20 s and 24 s, half as fragile as "fragile";
//   - degrades: 170 attempts until a compaction starts at 25 s, then 60
//     within 2 s, half as fragile as "fragile".
//
// Every profile wobbles by ±4% per round.
func Named(name string) (Profile, error) {
	const noise = 0.04
	switch name {
	case FragileName:
		return Profile{Name: name, Title: "Fragile", Capacity: 30, Collapse: 1, Noise: noise}, nil
	case RobustName:
		return Profile{Name: name, Title: "Robust", Capacity: 400, Noise: noise}, nil
	case HealthierName:
		return Profile{
			Name: name, Title: "Gets healthier (caches warm up)", Capacity: 50, Collapse: 0.5, Noise: noise,
			Changes: []Change{{AtNs: 20 * second, RampNs: 4 * second, Capacity: 170}},
		}, nil
	case DegradesName:
		return Profile{
			Name: name, Title: "Degrades (a compaction starts)", Capacity: 170, Collapse: 0.5, Noise: noise,
			Changes: []Change{{AtNs: 25 * second, RampNs: 2 * second, Capacity: 60}},
		}, nil
	}
	return Profile{}, unknownError(name)
}
