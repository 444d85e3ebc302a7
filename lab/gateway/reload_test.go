package gateway

import (
	"fmt"
	"testing"
)

// budgetModel replays one side's verdicts against week 1 token buckets:
// the orders budget and the cancels' (the same bucket for the shared
// side), kept across disconnects, switched at the reload. refill makes it
// the wrong reload: every bucket full at the new capacity.
type budgetModel struct {
	orders, cancels *bucket
	refill          bool
}

func newBudgetModel(sc Scenario, sharedBudget, refill bool) *budgetModel {
	k := sc.Config.Classes[sc.Class]
	o := newBucket(k.Orders, 0)
	m := &budgetModel{orders: &o, refill: refill}
	if sharedBudget {
		m.cancels = m.orders
	} else {
		c := newBucket(k.Cancels, 0)
		m.cancels = &c
	}
	return m
}

func (m *budgetModel) reload(k Class, now uint64) {
	switchTo := func(b *bucket, n Budget) {
		b.refill(now)
		b.capUnits, b.rate = n.Capacity*unit, n.RatePerSec
		b.units = min(b.units, b.capUnits)
		if m.refill {
			b.units = b.capUnits
		}
	}
	switchTo(m.orders, k.Orders)
	if m.cancels != m.orders {
		switchTo(m.cancels, k.Cancels)
	}
}

// replay returns the messages after the reload whose verdict the model
// does not predict, and the first of them.
func (m *budgetModel) replay(t *testing.T, sd *Side, sc Scenario) (wrong int, first string) {
	t.Helper()
	reloaded := false
	for _, e := range sd.Events {
		switch {
		case e.Mark == MarkReload:
			m.reload(sc.Reload.Classes[sc.Class], e.AtNs)
			reloaded = true
			continue
		case e.Mark != MarkNone || e.Kind == Heartbeat:
			continue
		}
		b, name := m.orders, "orders"
		if e.Kind == Cancel && m.cancels != m.orders {
			b, name = m.cancels, "cancels"
		}
		ok, retry := b.take(e.AtNs)
		v := e.Verdict
		agree := ok == (v.Outcome == Accept)
		if agree && !ok && v.Outcome != Disconnect {
			agree = v.RetryAfterNs == retry && v.Budget == name
		}
		if !agree {
			if !reloaded {
				t.Fatalf("%s at %d ns: %v %+v, but the budgets before the reload predict accepted=%v retry %d", sd.Name, e.AtNs, e.Kind, v, ok, retry)
			}
			if wrong == 0 {
				first = fmtEvent(e, ok, retry)
			}
			wrong++
			if ok {
				b.units += unit // the gateway refused: the model gives its token back to follow it
			}
		}
	}
	return wrong, first
}

func fmtEvent(e Event, ok bool, retry uint64) string {
	return fmt.Sprintf("%v at %d ns: %v, retry after %d ns; the model: accepted=%v, retry after %d ns",
		e.Kind, e.AtNs, e.Verdict.Outcome, e.Verdict.RetryAfterNs, ok, retry)
}

// The reload lowers the limits and refills nobody: replayed against token
// buckets that settle up to the reload at the old rates and then keep
// their tokens, capped at the new capacities, every verdict after it is
// predicted exactly (accepted or not, the budget and the retry-after),
// on both sides. A reload in the middle of a flood, where the budgets are
// empty, shows that the check has teeth: buckets refilled at the reload
// would have accepted orders that both gateways refused, in the lesson's
// scenario too.
func TestReloadRefillsNobody(t *testing.T) {
	mid := DefaultScenario()
	mid.ReloadAtNs = 5_500_000_000
	for _, c := range []struct {
		name string
		sc   Scenario
	}{{"default", DefaultScenario()}, {"mid-flood", mid}} {
		r, err := New(c.sc, Reference)
		if err != nil {
			t.Fatal(err)
		}
		for u := uint64(0); !r.Done(); u += 16_700_000 {
			r.Step(u)
		}
		for i, sd := range r.Sides() {
			if wrong, first := newBudgetModel(c.sc, i == 1, false).replay(t, sd, c.sc); wrong != 0 {
				t.Errorf("%s, %s: %d verdicts after the reload differ from budgets that kept their tokens; the first: %s", c.name, sd.Name, wrong, first)
			}
			wrong, first := newBudgetModel(c.sc, i == 1, true).replay(t, sd, c.sc)
			if wrong == 0 {
				t.Errorf("%s, %s: buckets refilled at the reload predict the same verdicts: the check cannot tell", c.name, sd.Name)
			}
			t.Logf("%s, %s: a refill at the reload would have changed %d verdicts; the first: %s", c.name, sd.Name, wrong, first)
		}
	}
}
