package gateway

import (
	"ratelab/grader/check"
	gm "ratelab/grader/model"
)

// traps are the checks' traps that the suite declares (see check.Trap);
// every other check's is the one its pitfall's mistakes fall into. A step
// back in time is neutralised by making the call at the latest time
// instead, which the contract answers alike.
var traps = map[string]check.Trap[setup, op]{
	"backward-time": check.StepsBack[setup, op](func(s setup) uint64 { return s.Start }),
	"reconnect":     {Has: carriesOn},
}

// carriesOn is reconnect's trap: the script reopens a closed session
// whose buckets carry on as they were, in its own class or in another
// where a budget keeps its units as they are (limited before and after,
// below the new capacity). A reopening in another class that only caps
// the units or fills a budget that was unlimited is a reload of that one
// session, the contract says, and reload's rule, not reconnect's.
func carriesOn(s script) bool {
	m := newModel(s.Setup.Cfg, s.Setup.Start)
	for o, now := range check.Times(s.Setup.Start, s.Ops) {
		switch o.Call {
		case openCall:
			m.Advance(now)
			k, ok := m.Cfg.Classes[o.Class]
			if ss := m.Sessions[o.Session]; ok && ss != nil && !ss.Open &&
				(ss.Class == o.Class || carries(ss.Orders, k.Orders) || carries(ss.Cancels, k.Cancels)) {
				return true
			}
			m.open(o.Session, o.Class, now)
		case reloadCall:
			m.reload(o.Cfg, now)
		default:
			m.admit(o.Session, o.Kind, now)
		}
	}
	return false
}

// carries reports whether a bucket b switched to the budget nb keeps its
// units as they are: both limited, b below nb's capacity.
func carries(b *gm.GatewayBucket, nb Budget) bool {
	return !b.Unlimited && nb.Capacity != 0 && b.Units.Cmp(gm.NewGatewayBucket(gm.GatewayBudget(nb)).Cap) < 0
}
