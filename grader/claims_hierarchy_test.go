package grader_test

import (
	"math/big"
	"slices"
	"strings"

	"ratelab/grader/report"
)

var hierarchyClaims = []claim{
	// "call 3 asked for 5 tokens, which node 1 did not hold (node 2 could
	// have paid)": at call 3, node 1 on its path held less than 5 tokens,
	// node 2 on its path at least that.
	{"hierarchy", "tokens, which node", func(ce *report.Counterexample, msg string) bool {
		qs := quotesText(msg, `call (\d+) asked for `+numRE+` tokens, which node (\d+) did not hold(?: \(node ([0-9 and]+) could have paid\))?`)
		for _, q := range qs {
			i := int(num(q[0])) - 1
			st := ce.Steps[i]
			if i >= len(ce.Steps)-1 || st.Name != "TryAcquire" || arg(st.Args, "n") != num(q[1]) {
				return false
			}
			t := treeAt(ce, i)
			want := new(big.Int).Mul(new(big.Int).SetUint64(num(q[1])), big.NewInt(1e9))
			path := t.path(arg(st.Args, "node"))
			holds := func(id uint64) bool { return slices.Contains(path, id) && t.nodes[id].units.Cmp(want) >= 0 }
			if !slices.Contains(path, num(q[2])) || holds(num(q[2])) {
				return false
			}
			for _, id := range strings.FieldsFunc(q[3], func(r rune) bool { return r < '0' || r > '9' }) {
				if !holds(num(id)) {
					return false
				}
			}
		}
		return len(qs) > 0
	}},
	// "call 2 (node 3) also paid at node 1, which is on the path of call
	// 4": an accepted TryAcquire whose path and the last call's share
	// node 1.
	{"hierarchy", "also paid at node", func(ce *report.Counterexample, msg string) bool {
		last := len(ce.Steps) - 1
		t := treeAt(ce, last)
		on := t.path(arg(ce.Steps[last].Args, "node"))
		qs := quotesText(msg, `call (\d+) \(node (\d+)\) also paid at node ([0-9 and]+)`)
		for _, q := range qs {
			st := ce.Steps[num(q[0])-1]
			if int(num(q[0])) > last || st.Name != "TryAcquire" || arg(st.Args, "node") != num(q[1]) || st.Want != "true" {
				return false
			}
			for _, id := range strings.FieldsFunc(q[2], func(r rune) bool { return r < '0' || r > '9' }) {
				if !slices.Contains(t.path(num(q[1])), num(id)) || !slices.Contains(on, num(id)) {
					return false
				}
			}
		}
		return len(qs) > 0 && all(msg, `which is on the path of call (\d+)`, func(q []uint64) bool { return q[0] == uint64(len(ce.Steps)) })
	}},
	// "node 2 was off the path for 500 ns of the clock's advance": node 2
	// is on the last call's path, and the calls up to it that moved the
	// clock without it on their path moved it by 500 ns in all.
	{"hierarchy", "was off the path for", func(ce *report.Counterexample, msg string) bool {
		_, latest, given := clock(ce)
		last := len(ce.Steps) - 1
		t := treeAt(ce, last)
		return all(msg, `node (\d+) was off the path for `+numRE+` ns`, func(q []uint64) bool {
			off := uint64(0)
			for i, st := range ce.Steps[:last+1] {
				if prev := before(ce, i); given[i] && latest[i] > prev && !slices.Contains(t.path(arg(st.Args, "node")), q[0]) {
					off += latest[i] - prev
				}
			}
			return slices.Contains(t.path(arg(ce.Steps[last].Args, "node")), q[0]) && off == q[1]
		})
	}},
	{"hierarchy", "tokens/s on every level", func(ce *report.Counterexample, msg string) bool {
		rates := argsOf(ce, "Add", "ratePerSec")
		return all(msg, `apart at `+numRE+` tokens/s on every level`, func(q []uint64) bool {
			return len(rates) > 0 && slicesAll(rates, func(r uint64) bool { return r == q[0] }) && smallParts(gaps(ce), msg, q[0]) &&
				earned(gaps(ce), msg, `tokens/s on every level: ([0-9.]+) (tokens?) earned`, q[0])
		})
	}},
	{"hierarchy", "Those parts must add up", func(ce *report.Counterexample, _ string) bool {
		return slicesAny(gaps(ce), func(d uint64) bool {
			return slicesAny(argsOf(ce, "Add", "ratePerSec"), func(r uint64) bool { return r > 0 && belowToken(d, r) })
		})
	}},
	// "call 4 named a parent or a node that does not exist (or a parent at
	// MaxDepth)": an Add the contract refuses, or a call on an id no Add
	// returned.
	{"hierarchy", "named a parent or a node that does not exist", func(ce *report.Counterexample, msg string) bool {
		return all(msg, `call (\d+)`, func(q []uint64) bool {
			i := int(q[0]) - 1
			s := ce.Steps[i]
			if s.Name == "Add" {
				return strings.HasPrefix(s.Want, "-1")
			}
			for _, a := range ce.Steps[:i] {
				if a.Name == "Add" && a.Want == s.Args["node"] {
					return false
				}
			}
			return true
		})
	}},
}

// tree is the contract's tree of token buckets, replayed over a
// counterexample's steps: each node starts full as of the tree's latest
// time, earns elapsed×ratePerSec units for every ns the tree's one clock
// advances, capped at capacity×10^9; a TryAcquire takes n×10^9 units from
// every node on its path or none. An Add the contract refuses (its answer
// -1) adds nothing.
type tree struct {
	nodes []*treeNode
}

type treeNode struct {
	parent     int // -1: Root
	rate       uint64
	cap, units *big.Int
}

// path is the node id and its ancestors, the node first (none for an id
// Add never returned).
func (t *tree) path(id uint64) []uint64 {
	var out []uint64
	for n := int(id); id < uint64(len(t.nodes)) && n >= 0; n = t.nodes[n].parent {
		out = append(out, uint64(n))
	}
	return out
}

// treeAt is the tree after the steps of ce before step i, with step i's
// time applied.
func treeAt(ce *report.Counterexample, i int) *tree {
	_, latest, given := clock(ce)
	t := &tree{}
	advance := func(j int) {
		if prev := before(ce, j); given[j] && latest[j] > prev {
			for _, n := range t.nodes {
				n.units.Add(n.units, new(big.Int).Mul(new(big.Int).SetUint64(latest[j]-prev), new(big.Int).SetUint64(n.rate)))
				if n.units.Cmp(n.cap) > 0 {
					n.units.Set(n.cap)
				}
			}
		}
	}
	for j, st := range ce.Steps[:i] {
		advance(j)
		switch st.Name {
		case "Add":
			if strings.HasPrefix(st.Want, "-") {
				continue
			}
			parent := -1
			if p, ok := st.Args["parent"].(string); ok && p != "Root" {
				parent = int(arg(st.Args, "parent"))
			}
			c := new(big.Int).Mul(new(big.Int).SetUint64(arg(st.Args, "capacity")), big.NewInt(1e9))
			t.nodes = append(t.nodes, &treeNode{parent: parent, rate: arg(st.Args, "ratePerSec"), cap: c, units: new(big.Int).Set(c)})
		case "TryAcquire":
			want := new(big.Int).Mul(new(big.Int).SetUint64(arg(st.Args, "n")), big.NewInt(1e9))
			path := t.path(arg(st.Args, "node"))
			if len(path) > 0 && !slices.ContainsFunc(path, func(id uint64) bool { return t.nodes[id].units.Cmp(want) < 0 }) {
				for _, id := range path {
					t.nodes[id].units.Sub(t.nodes[id].units, want)
				}
			}
		}
	}
	advance(i)
	return t
}
