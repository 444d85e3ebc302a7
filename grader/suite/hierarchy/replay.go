package hierarchy

import (
	"fmt"
	"strings"

	"ratelab/grader/check"
)

// rootID and maxDepth are the contract's Root and MaxDepth.
const (
	rootID   = -1
	maxDepth = 8
)

// setup is New's argument.
type setup struct{ Start uint64 }

type kind uint8

const (
	acquire kind = iota
	available
	add
)

// op is one call: TryAcquire and Available come at its When, Add at the
// latest time so far.
type op struct {
	Kind kind
	Node int    // TryAcquire's or Available's node; Add's parent
	N    uint64 // TryAcquire's n; Add's capacity
	Rate uint64 // Add's ratePerSec
	check.When
}

type script = check.Script[setup, op]

// At returns the time of o when latest is the latest time so far.
func (o op) At(latest uint64) uint64 {
	if o.Kind == add {
		return latest
	}
	return check.TimeAt(latest, o.Wait, o.Back)
}

func nodeName(id int) string {
	if id == rootID {
		return "Root"
	}
	return fmt.Sprint(id)
}

// call is how the learner reads o made at now.
func (o op) call(now uint64) string {
	switch o.Kind {
	case add:
		return fmt.Sprintf("Add(parent=%s, capacity=%s, ratePerSec=%s)", nodeName(o.Node), check.U(o.N), check.U(o.Rate))
	case available:
		return fmt.Sprintf("Available(node=%d, nowNs=%s)", o.Node, check.U(now))
	}
	return fmt.Sprintf("TryAcquire(node=%d, nowNs=%s, n=%s)", o.Node, check.U(now), check.U(o.N))
}

// addResult is Add's answer as the report shows it: the id, or -1 and an
// error that names the problem (the model's word for it).
func addResult(id int, err error, problem string) string {
	want := wantAdd(id, problem)
	switch {
	case err == nil:
		return fmt.Sprint(id)
	case id == -1 && problem != "" && names(err.Error(), problem):
		return want
	}
	msg := err.Error()
	if len(msg) > 120 {
		msg = msg[:120] + "…"
	}
	return fmt.Sprintf("%d, error %q", id, msg)
}

func wantAdd(id int, problem string) string {
	if problem == "" {
		return fmt.Sprint(id)
	}
	return "-1 and an error naming the " + problem
}

// names reports whether an error's text names the problem.
func names(msg, problem string) bool {
	msg = strings.ToLower(msg)
	if problem == "depth" {
		return strings.Contains(msg, "depth") || strings.Contains(msg, "deep")
	}
	return strings.Contains(msg, problem)
}

func replay(newImpl New, s script) check.Trace {
	t, tree, ok := check.Begin(fmt.Sprintf("New(nowNs=%s)", check.U(s.Setup.Start)), func() Tree { return newImpl(s.Setup.Start) })
	t.Full = s.Full
	if ok {
		m := newModel(s.Setup.Start)
		check.Replay(&t, s.Setup.Start, s.Ops, func(o op, now uint64) (line, got, want string, p *check.Panic) {
			switch o.Kind {
			case add:
				var r addAnswer
				r, p = check.Call(func() addAnswer { id, err := tree.Add(o.Node, o.N, o.Rate); return addAnswer{id, err} })
				id, problem := m.Add(o.Node, o.N, o.Rate)
				got, want = addResult(r.id, r.err, problem), wantAdd(id, problem)
			case available:
				var v uint64
				v, p = check.Call(func() uint64 { return tree.Available(o.Node, now) })
				got, want = check.U(v), check.U(m.Available(o.Node, now))
			default:
				var v bool
				v, p = check.Call(func() bool { return tree.TryAcquire(o.Node, now, o.N) })
				got, want = check.B(v), check.B(m.TryAcquire(o.Node, now, o.N))
			}
			return o.call(now), got, want, p
		})
	}
	return t
}

type addAnswer struct {
	id  int
	err error
}
