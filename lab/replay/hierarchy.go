package replay

import (
	"errors"
	"strconv"

	"ratelab/grader/model"
	"ratelab/grader/report"
	"ratelab/lab/hierarchy"
)

// The week 3 hierarchy: a tree of token buckets with one clock, each
// node's units held against its capacity.
func init() {
	register(Exercise{ID: "hierarchy", Build: buildHierarchy, Model: modelHierarchy})
}

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
		return model.TreeRoot, nil
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

// HierarchyModel is the hierarchy's contract, the grader's own model of it
// (grader/model.Tree), with what the replay shows of its state.
type HierarchyModel struct{ *model.Tree }

// NewHierarchyModel is New(nowNs): no nodes.
func NewHierarchyModel(nowNs uint64) *HierarchyModel { return &HierarchyModel{model.NewTree(nowNs)} }

// Add is the contract's Add, its problem as an error.
func (m *HierarchyModel) Add(parent int, capacity, rate uint64) (int, error) {
	id, problem := m.Tree.Add(parent, capacity, rate)
	if problem != "" {
		return id, errors.New(problem)
	}
	return id, nil
}

func (m *HierarchyModel) Do(c report.Call) (string, error) { return doHierarchy(m, c) }

// maxNodes is the most nodes drawn; a larger tree shows its first ones.
const maxNodes = 16

// State is each node's units held against its capacity, then the tree's
// latest time seen.
func (m *HierarchyModel) State() []Field {
	var out []Field
	for i := range min(m.Len(), maxNodes) {
		label := "node " + strconv.Itoa(i)
		if p := m.Parent(i); p != model.TreeRoot {
			label += " (under " + strconv.Itoa(p) + ")"
		}
		units := m.Units(i)
		out = append(out, Field{
			Label: label,
			Text:  tokensText(units) + " of " + u(m.Capacity(i)) + " tokens, +" + u(m.Rate(i)) + "/s",
			Value: ratio(units, m.Cap(i)), Max: 1,
		})
	}
	if m.Len() > maxNodes {
		out = append(out, Field{Label: "more", Text: strconv.Itoa(m.Len()-maxNodes) + " nodes not drawn"})
	}
	if m.Len() == 0 {
		out = append(out, Field{Label: "nodes", Text: "none yet"})
	}
	return append(out, Field{Label: "latest", Text: "t = " + u(m.Latest()) + " ns"})
}

func modelHierarchy(setup report.Call) (Model, error) {
	now, err := hierarchySetup(setup)
	if err != nil {
		return nil, err
	}
	return NewHierarchyModel(now), nil
}
