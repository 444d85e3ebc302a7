package replay

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"ratelab/grader/report"
	"ratelab/lab/hierarchy"
)

// The week 3 hierarchy: a tree of token buckets with one clock, each
// node's units held against its capacity.
func init() {
	register(Exercise{ID: "hierarchy", Build: buildHierarchy, Model: modelHierarchy})
}

// The hierarchy contract's Root (the parent of a top-level node) and
// MaxDepth (nodes on a path, the node itself included).
const (
	hierarchyRoot     = -1
	hierarchyMaxDepth = 8
)

func hierarchySetup(c report.Call) (uint64, error) {
	if err := want(c, "New"); err != nil {
		return 0, err
	}
	return argU64(c, "nowNs")
}

// argNode reads a node id: "Root", or an int (an id Add never returned
// too).
func argNode(c report.Call, name string) (int, error) {
	if c.Args[name] == "Root" {
		return hierarchyRoot, nil
	}
	return argInt(c, name)
}

func doHierarchy(t hierarchy.Tree, c report.Call) (string, error) {
	switch c.Name {
	case "Add":
		parent, err := argNode(c, "parent")
		if err != nil {
			return "", err
		}
		capacity, err := argU64(c, "capacity")
		if err != nil {
			return "", err
		}
		rate, err := argU64(c, "ratePerSec")
		if err != nil {
			return "", err
		}
		return addText(t.Add(parent, capacity, rate)), nil
	case "TryAcquire", "Available":
		node, err := argNode(c, "node")
		if err != nil {
			return "", err
		}
		now, err := argU64(c, "nowNs")
		if err != nil {
			return "", err
		}
		if c.Name == "Available" {
			return goU(t.Available(node, now)), nil
		}
		n, err := argU64(c, "n")
		if err != nil {
			return "", err
		}
		return bool2(t.TryAcquire(node, now, n)), nil
	}
	return "", want(c, "Add", "TryAcquire", "Available")
}

// addText is Add's answer: the id, or the id and "an error". The error's
// text is not compared (the reference's words are not the contract's);
// the grader checks that it names the problem.
func addText(id int, err error) string {
	if err != nil {
		return strconv.Itoa(id) + " and an error"
	}
	return strconv.Itoa(id)
}

type hierarchyCalls struct{ t hierarchy.Tree }

func (x hierarchyCalls) Do(c report.Call) (string, error) { return doHierarchy(x.t, c) }

func buildHierarchy(impls Impls, setup report.Call) (Instance, error) {
	now, err := hierarchySetup(setup)
	if err != nil {
		return nil, err
	}
	if impls.Hierarchy.New == nil {
		return nil, errMissing(impls.Hierarchy.Missing)
	}
	return hierarchyCalls{impls.Hierarchy.New(now)}, nil
}

// HierarchyNode is one bucket of the tree: its parent (hierarchyRoot for
// a top-level node), depth (1 at the top) and units (1 token = 10^9 units)
// out of Cap, earning Rate units a nanosecond.
type HierarchyNode struct {
	Parent, Depth  int
	Units, Cap     *big.Int
	Capacity, Rate uint64
}

// HierarchyModel is the hierarchy's contract as plain state: the nodes in
// the order Add made them, and the tree's one latest time seen.
type HierarchyModel struct {
	Latest uint64
	Nodes  []HierarchyNode
}

// NewHierarchyModel is New(nowNs): no nodes.
func NewHierarchyModel(nowNs uint64) *HierarchyModel { return &HierarchyModel{Latest: nowNs} }

// advance refills every node for the time since the latest time seen.
func (m *HierarchyModel) advance(now uint64) {
	if now <= m.Latest {
		return
	}
	elapsed := new(big.Int).SetUint64(now - m.Latest)
	for _, n := range m.Nodes {
		n.Units.Add(n.Units, new(big.Int).Mul(elapsed, new(big.Int).SetUint64(n.Rate)))
		if n.Units.Cmp(n.Cap) > 0 {
			n.Units.Set(n.Cap)
		}
	}
	m.Latest = now
}

func (m *HierarchyModel) valid(id int) bool { return id >= 0 && id < len(m.Nodes) }

// path is id, its parent, … up to its top-level node.
func (m *HierarchyModel) path(id int) []int {
	var p []int
	for ; id != hierarchyRoot; id = m.Nodes[id].Parent {
		p = append(p, id)
	}
	return p
}

// Add adds a full node, or returns -1 and an error for a parent that is
// neither Root nor a node, or a node deeper than MaxDepth.
func (m *HierarchyModel) Add(parent int, capacity, rate uint64) (int, error) {
	depth := 1
	if parent != hierarchyRoot {
		if !m.valid(parent) {
			return -1, fmt.Errorf("no parent %d", parent)
		}
		if depth = m.Nodes[parent].Depth + 1; depth > hierarchyMaxDepth {
			return -1, fmt.Errorf("depth %d beyond %d", depth, hierarchyMaxDepth)
		}
	}
	full := new(big.Int).Mul(new(big.Int).SetUint64(capacity), unitsPerToken)
	m.Nodes = append(m.Nodes, HierarchyNode{Parent: parent, Depth: depth, Units: new(big.Int).Set(full), Cap: full, Capacity: capacity, Rate: rate})
	return len(m.Nodes) - 1, nil
}

// TryAcquire takes n tokens from every bucket on the path if all hold
// them, else nothing anywhere.
func (m *HierarchyModel) TryAcquire(id int, now, n uint64) bool {
	m.advance(now)
	if !m.valid(id) {
		return false
	}
	need := new(big.Int).Mul(new(big.Int).SetUint64(n), unitsPerToken)
	for _, i := range m.path(id) {
		if m.Nodes[i].Units.Cmp(need) < 0 {
			return false
		}
	}
	for _, i := range m.path(id) {
		m.Nodes[i].Units.Sub(m.Nodes[i].Units, need)
	}
	return true
}

// Available is the least whole tokens held on the path.
func (m *HierarchyModel) Available(id int, now uint64) uint64 {
	m.advance(now)
	if !m.valid(id) {
		return 0
	}
	least := uint64(math.MaxUint64)
	for _, i := range m.path(id) {
		least = min(least, new(big.Int).Quo(m.Nodes[i].Units, unitsPerToken).Uint64())
	}
	return least
}

func (m *HierarchyModel) Do(c report.Call) (string, error) { return doHierarchy(m, c) }

// maxNodes is the most nodes drawn; a larger tree shows its first ones.
const maxNodes = 16

// State is each node's units held against its capacity, then the tree's
// latest time seen.
func (m *HierarchyModel) State() []Field {
	var out []Field
	for i, n := range m.Nodes[:min(len(m.Nodes), maxNodes)] {
		label := "node " + strconv.Itoa(i)
		if n.Parent != hierarchyRoot {
			label += " (under " + strconv.Itoa(n.Parent) + ")"
		}
		out = append(out, Field{
			Label: label,
			Text:  tokensText(n.Units) + " of " + u(n.Capacity) + " tokens, +" + u(n.Rate) + "/s",
			Value: ratio(n.Units, n.Cap), Max: 1,
		})
	}
	if len(m.Nodes) > maxNodes {
		out = append(out, Field{Label: "more", Text: strconv.Itoa(len(m.Nodes)-maxNodes) + " nodes not drawn"})
	}
	if len(m.Nodes) == 0 {
		out = append(out, Field{Label: "nodes", Text: "none yet"})
	}
	return append(out, Field{Label: "latest", Text: "t = " + u(m.Latest) + " ns"})
}

func modelHierarchy(setup report.Call) (Model, error) {
	now, err := hierarchySetup(setup)
	if err != nil {
		return nil, err
	}
	return NewHierarchyModel(now), nil
}
