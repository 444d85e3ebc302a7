package hierarchy

import (
	"errors"
	"math/big"
	"slices"

	"ratelab/grader/check"
)

// mistakes are those learners make with a tree of token buckets (see
// check.Mistake).
var mistakes = check.Mistakes(mistaken, []check.Mistake[New]{
	// all-or-nothing: no level charged for a refused message.
	{Name: "charges-as-it-goes", Pitfall: "all-or-nothing", Says: "charges each level as it checks it, from the node up, so that when a level refuses, the levels below it have paid for a message that was never sent"},
	{Name: "charges-top-down", Pitfall: "all-or-nothing", Says: "charges each level as it checks it, from the top-level node down, so that when a level refuses, the levels above it have paid for a message that was never sent"},
	// shared-parent: every level is charged.
	{Name: "charges-node-only", Pitfall: "shared-parent", Says: "checks every level of the path but charges only the node itself, so that siblings never drain their shared parent"},
	{Name: "ignores-ancestors", Pitfall: "shared-parent", Says: "checks and charges the node alone, as if the tree were flat: its ancestors never refuse and never pay"},
	{Name: "charges-node-and-parent", Pitfall: "shared-parent", Says: "charges the node and its parent only, never the levels above them"},
	// lazy-refill: a node earns for all the time that passed, on the path or not.
	{Name: "path-clock", Pitfall: "lazy-refill", Says: "refills only the nodes on a call's path, by the time that call moved the tree's clock, so that a node off the path loses the time that passed meanwhile"},
	{Name: "refills-on-advance", Pitfall: "lazy-refill", Says: "refills the path (each node from its own last refill) only on a call that moves the tree's clock, so that a node reached at a time already seen is not brought up to it"},
	// backward-time: a step back adds nothing and rewinds nothing.
	{Name: "wrapping-elapsed", Pitfall: "backward-time", Says: "takes now−last without checking which is later, so that a step back wraps to a huge refill (a full node) and rewinds the clocks"},
	{Name: "rewinds-clock", Pitfall: "backward-time", Says: "moves the clocks back to an earlier time (adding nothing), so that the time after it is earned a second time"},
	// fractional-tokens: what a refill earns below a whole token is kept.
	{Name: "truncating-refill", Pitfall: "fractional-tokens", Says: "rounds each refill down to whole tokens and moves the node's clock to now anyway, throwing the fraction away"},
	{Name: "whole-seconds", Pitfall: "fractional-tokens", Says: "counts the time elapsed in whole seconds (elapsed/10^9, rounded down, times the rate) and moves the node's clock to now anyway"},
	// overflow: every product exact.
	{Name: "wrapping-refill", Pitfall: "overflow", Says: "computes elapsed×rate in 64 bits, which wraps"},
	{Name: "wrapping-capacity", Pitfall: "overflow", Says: "computes capacity×10^9 in 64 bits, which wraps"},
	{Name: "wrapping-request", Pitfall: "overflow", Says: "computes n×10^9 in 64 bits, which wraps"},
	// add-errors: bad parents and unknown ids change nothing (but the clock).
	{Name: "burns-an-id", Pitfall: "add-errors", Says: "uses up an id on an Add refused for an unknown parent, so that the next good Add's id is one too many"},
	{Name: "negative-parent-is-root", Pitfall: "add-errors", Says: "takes any negative parent for Root instead of refusing the ones other than -1"},
	{Name: "no-depth-limit", Pitfall: "add-errors", Says: "never refuses a node deeper than MaxDepth"},
	{Name: "depth-off-by-one", Pitfall: "add-errors", Says: "refuses a node at depth MaxDepth already, not only one deeper"},
	{Name: "unknown-id-keeps-clock", Pitfall: "add-errors", Says: "returns false or 0 for an id Add never returned before moving the tree's clock to its nowNs"},
	// exactness: the rest of the contract.
	{Name: "starts-empty", Pitfall: "exactness", Says: "starts a new node empty instead of full"},
	{Name: "no-cap", Pitfall: "exactness", Says: "never caps what a node holds at its capacity"},
	{Name: "needs-more-than-n", Pitfall: "exactness", Says: "grants n tokens only where a level holds more than n, not exactly n"},
	{Name: "available-node-only", Pitfall: "exactness", Says: "returns from Available the node's own whole tokens, not the least over its path"},
})

// mistaken returns New for the model with the named mistake.
func mistaken(mistake string) New {
	return func(now uint64) Tree { return &tree{mistake: mistake, latest: now} }
}

// tree is the contract's tree (model) written again with a switch for each
// mistake. It refills lazily: each node remembers the time it was last
// refilled to, and a call refills each level of its path it reaches up to
// the tree's latest time, which earns exactly what the model's eager
// refill of every node does.
type tree struct {
	mistake string
	latest  uint64
	moved   uint64  // how far the latest call moved the clock
	nodes   []*node // nil: an id used up by a refused Add (burns-an-id)
}

type node struct {
	parent, depth int
	units, cap    *big.Int
	rate          uint64
	last          uint64 // the time it was last refilled to
}

var wrap = new(big.Int).Lsh(big.NewInt(1), 64)

// product is x×y, exact, or modulo 2^64 with the mistake named wrapping.
func (t *tree) product(x, y uint64, wrapping string) *big.Int {
	p := new(big.Int).Mul(new(big.Int).SetUint64(x), new(big.Int).SetUint64(y))
	if t.mistake == wrapping {
		p.Mod(p, wrap)
	}
	return p
}

func (t *tree) valid(id int) bool { return id >= 0 && id < len(t.nodes) && t.nodes[id] != nil }

func (t *tree) Add(parent int, capacity, rate uint64) (int, error) {
	if parent < 0 && t.mistake == "negative-parent-is-root" {
		parent = rootID
	}
	depth := 1
	if parent != rootID {
		if !t.valid(parent) {
			if t.mistake == "burns-an-id" && (parent < 0 || parent >= len(t.nodes)) {
				t.nodes = append(t.nodes, nil)
			}
			return -1, errors.New("no such parent")
		}
		depth = t.nodes[parent].depth + 1
		limit := maxDepth
		if t.mistake == "depth-off-by-one" {
			limit = maxDepth - 1
		}
		if depth > limit && t.mistake != "no-depth-limit" {
			return -1, errors.New("too deep: the depth would pass MaxDepth")
		}
	}
	c := t.product(capacity, 1_000_000_000, "wrapping-capacity")
	n := &node{parent: parent, depth: depth, units: new(big.Int).Set(c), cap: c, rate: rate, last: t.latest}
	if t.mistake == "starts-empty" {
		n.units.SetInt64(0)
	}
	t.nodes = append(t.nodes, n)
	return len(t.nodes) - 1, nil
}

// path returns id and its ancestors, id first.
func (t *tree) path(id int) []*node {
	var p []*node
	for ; id != rootID; id = t.nodes[id].parent {
		p = append(p, t.nodes[id])
	}
	return p
}

// clock moves the tree's clock for a call at now on id, and reports
// whether id is a node.
func (t *tree) clock(id int, now uint64) bool {
	if !t.valid(id) && t.mistake == "unknown-id-keeps-clock" {
		return false
	}
	t.moved = 0
	if now > t.latest {
		t.moved = now - t.latest
	}
	switch t.mistake {
	case "wrapping-elapsed", "rewinds-clock":
		t.latest = now
	default:
		t.latest = max(t.latest, now)
	}
	return t.valid(id)
}

// reach refills a level a call reaches, just before it is read; with
// path-clock the call's whole path was refilled already (see
// refillPath).
func (t *tree) reach(n *node) {
	switch {
	case t.mistake == "path-clock":
	case t.mistake == "refills-on-advance" && t.moved == 0:
	default:
		t.refill(n)
	}
}

// refillPath refills, with path-clock, every level of a call's path by
// the time the call moved the clock, before any is read.
func (t *tree) refillPath(path []*node) {
	if t.mistake == "path-clock" {
		for _, n := range path {
			t.refill(n)
		}
	}
}

// refill brings n up to the tree's latest time.
func (t *tree) refill(n *node) {
	now := t.latest
	var elapsed uint64
	switch {
	case t.mistake == "path-clock":
		elapsed = t.moved
	case now > n.last:
		elapsed = now - n.last
	case now < n.last && t.mistake == "wrapping-elapsed":
		elapsed = now - n.last // wraps around
	}
	n.last = now // back in time too, with wrapping-elapsed and rewinds-clock
	earned := t.product(elapsed, n.rate, "wrapping-refill")
	switch t.mistake {
	case "truncating-refill":
		earned.Sub(earned, new(big.Int).Rem(earned, unitsPerToken))
	case "whole-seconds":
		earned = t.product(elapsed/1_000_000_000, n.rate, "")
		earned.Mul(earned, unitsPerToken)
	}
	n.units.Add(n.units, earned)
	if t.mistake != "no-cap" && n.units.Cmp(n.cap) > 0 {
		n.units.Set(n.cap)
	}
}

// holds reports whether n can pay need units (for n tokens).
func (t *tree) holds(n *node, need *big.Int, tokens uint64) bool {
	c := n.units.Cmp(need)
	return c > 0 || c == 0 && (tokens == 0 || t.mistake != "needs-more-than-n")
}

// TryAcquire walks the path from the node up, refilling each level as
// it reaches it and stopping at the first that cannot pay, then charges
// every level. (The order matters only with a mistake: a level above the
// one that refuses is not reached, so not refilled.)
func (t *tree) TryAcquire(id int, now, n uint64) bool {
	if !t.clock(id, now) {
		return false
	}
	need := t.product(n, 1_000_000_000, "wrapping-request")
	path := t.path(id)
	t.refillPath(path)
	switch t.mistake {
	case "charges-top-down":
		slices.Reverse(path)
		fallthrough
	case "charges-as-it-goes":
		for _, x := range path {
			t.reach(x)
			if !t.holds(x, need, n) {
				return false
			}
			x.units.Sub(x.units, need)
		}
		return true
	}
	check, pay := path, path
	switch t.mistake {
	case "ignores-ancestors":
		check, pay = path[:1], path[:1]
	case "charges-node-only":
		pay = path[:1]
	case "charges-node-and-parent":
		pay = path[:min(2, len(path))]
	}
	for _, x := range check {
		t.reach(x)
		if !t.holds(x, need, n) {
			return false
		}
	}
	for _, x := range pay {
		x.units.Sub(x.units, need)
	}
	return true
}

func (t *tree) Available(id int, now uint64) uint64 {
	if !t.clock(id, now) {
		return 0
	}
	path := t.path(id)
	t.refillPath(path)
	if t.mistake == "available-node-only" {
		path = path[:1]
	}
	var least *big.Int
	for _, x := range path {
		t.reach(x)
		if least == nil || x.units.Cmp(least) < 0 {
			least = x.units
		}
	}
	return new(big.Int).Quo(least, unitsPerToken).Uint64() // the low 64 bits, with no-cap
}
