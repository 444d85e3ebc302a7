package hierarchy

import "ratelab/grader/check"

// traps are the checks' traps that the suite declares (see check.Trap);
// every other check's is the one its pitfall's mistakes fall into. A step
// back in time is neutralised by making the call at the latest time
// instead, which the contract answers alike.
var traps = map[string]check.Trap[setup, op]{
	"backward-time": check.StepsBack[setup, op](func(s setup) uint64 { return s.Start }),
}
