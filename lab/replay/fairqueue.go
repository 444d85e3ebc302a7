package replay

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	gm "ratelab/grader/model"
	"ratelab/grader/report"
	"ratelab/lab/fairqueue"
)

// The week 3 deficit round robin: each session's deficit and queue, and
// the round.
func init() {
	register(Exercise{ID: "fairqueue", Build: buildFairqueue, Model: modelFairqueue})
}

// fairqueueSetup reads New(quantum); a quantum outside [1, 2^32] is
// refused, as the reference would by panicking.
func fairqueueSetup(c report.Call) (uint64, error) {
	if err := want(c, "New"); err != nil {
		return 0, err
	}
	q, err := argU64(c, "quantum")
	if err != nil {
		return 0, err
	}
	if q < 1 || q > 1<<32 {
		return 0, fmt.Errorf("New(quantum=%d): outside [1, 2^32], nothing to replay", q)
	}
	return q, nil
}

func doFairqueue(q fairqueue.Scheduler, c report.Call) (string, error) {
	switch c.Name {
	case "Push":
		s, err := argU64(c, "session")
		if err != nil {
			return "", err
		}
		if s > math.MaxUint32 {
			return "", fmt.Errorf("Push: session %d is not a uint32", s)
		}
		cost, err := argU64(c, "cost")
		if err != nil {
			return "", err
		}
		q.Push(uint32(s), cost)
		return "", nil
	case "Pop":
		s, cost, ok := q.Pop()
		return fmt.Sprintf("(%d, %s, %t)", s, goU(cost), ok), nil
	case "Len":
		return strconv.Itoa(q.Len()), nil
	}
	return "", want(c, "Push", "Pop", "Len")
}

type fairqueueCalls struct{ q fairqueue.Scheduler }

func (x fairqueueCalls) Do(c report.Call) (string, error) { return doFairqueue(x.q, c) }

func buildFairqueue(impls Impls, setup report.Call) (Instance, error) {
	q, err := fairqueueSetup(setup)
	if err != nil {
		return nil, err
	}
	if impls.Fairqueue.New == nil {
		return nil, errMissing(impls.Fairqueue.Missing)
	}
	return fairqueueCalls{impls.Fairqueue.New(q)}, nil
}

// FairqueueModel is deficit round robin as plain state: the grader's
// model.FairQueue.
type FairqueueModel struct{ gm.FairQueue }

// NewFairqueueModel is New(quantum): nothing waiting.
func NewFairqueueModel(quantum uint64) *FairqueueModel {
	return &FairqueueModel{*gm.NewFairQueue(quantum)}
}

// Len is the number of commands waiting.
func (m *FairqueueModel) Len() int { return m.N }

func (m *FairqueueModel) Do(c report.Call) (string, error) { return doFairqueue(m, c) }

// maxFlows is the most sessions drawn, and maxCosts the most waiting
// costs written per session.
const (
	maxFlows = 16
	maxCosts = 12
)

// State is the round, then each session in round order: its deficit
// against the quantum and its queue of costs.
func (m *FairqueueModel) State() []Field {
	if len(m.Round) == 0 {
		return []Field{{Label: "round", Text: "empty: nothing waiting (quantum " + u(m.Quantum) + ")"}}
	}
	order := make([]string, len(m.Round))
	for i, s := range m.Round {
		order[i] = strconv.FormatUint(uint64(s), 10)
	}
	turn := "its turn not begun"
	if m.InTurn {
		turn = "in its turn"
	}
	out := []Field{{Label: "round", Text: strings.Join(order, " → ") + " (session " + order[0] + " " + turn + "; quantum " + u(m.Quantum) + ")"}}
	for _, s := range m.Round[:min(len(m.Round), maxFlows)] {
		f := m.Flows[s]
		costs := make([]string, 0, maxCosts)
		for _, c := range f.Queue[:min(len(f.Queue), maxCosts)] {
			costs = append(costs, u(c))
		}
		q := "[" + strings.Join(costs, ", ")
		if len(f.Queue) > maxCosts {
			q += ", … " + strconv.Itoa(len(f.Queue)-maxCosts) + " more"
		}
		out = append(out, Field{
			Label: "session " + strconv.FormatUint(uint64(s), 10),
			Text:  "deficit " + u(f.Deficit) + ", queue " + q + "]",
			Value: float64(f.Deficit), Max: float64(max(m.Quantum, f.Deficit, f.Queue[0])),
		})
	}
	return out
}

func modelFairqueue(setup report.Call) (Model, error) {
	q, err := fairqueueSetup(setup)
	if err != nil {
		return nil, err
	}
	return NewFairqueueModel(q), nil
}
