package fairqueue

import (
	"fmt"

	"ratelab/grader/check"
)

// setup is New's argument.
type setup struct{ Quantum uint64 }

// op is one call: Push(Session, Cost), Pop() or Len().
type op struct {
	Pop, Len bool
	Session  uint32
	Cost     uint64
}

type script = check.Script[setup, op]

func (o op) call() string {
	switch {
	case o.Pop:
		return "Pop()"
	case o.Len:
		return "Len()"
	}
	return fmt.Sprintf("Push(session=%d, cost=%s)", o.Session, check.U(o.Cost))
}

func popResult(s uint32, c uint64, ok bool) string {
	return fmt.Sprintf("(%d, %s, %t)", s, check.U(c), ok)
}

type popAnswer struct {
	s  uint32
	c  uint64
	ok bool
}

func replay(newImpl New, s script) check.Trace {
	t, q, ok := check.Begin(fmt.Sprintf("New(quantum=%s)", check.U(s.Setup.Quantum)), func() Queue { return newImpl(s.Setup.Quantum) })
	t.Full = s.Full
	if !ok {
		return t
	}
	m := newModel(s.Setup.Quantum)
	for _, o := range s.Ops {
		var got, want string
		var p *check.Panic
		switch {
		case o.Pop:
			var a popAnswer
			a, p = check.Call(func() popAnswer { s, c, ok := q.Pop(); return popAnswer{s, c, ok} })
			got = popResult(a.s, a.c, a.ok)
			want = popResult(m.Pop())
		case o.Len:
			var n int
			n, p = check.Call(func() int { return q.Len() })
			got, want = fmt.Sprint(n), fmt.Sprint(m.N)
		default:
			_, p = check.Call(func() bool { q.Push(o.Session, o.Cost); return true })
			m.Push(o.Session, o.Cost)
			got, want = "", ""
		}
		if !t.Step(o.call(), got, want, p) {
			return t
		}
	}
	return t
}
