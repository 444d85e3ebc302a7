package slidingwindow

import (
	"slices"

	"ratelab/grader/check"
)

// traps are the checks' traps that the suite declares (see check.Trap);
// every other check's is the one its pitfall's mistakes fall into.
var traps = map[string]check.Trap[setup, op]{
	// A call earlier than the latest time seen, neutralised by making it
	// at the latest time instead (no jump, no offset: never before the
	// latest time), which the contract answers alike.
	"backward-time": {
		Has: func(s script) bool {
			latest := uint64(0)
			for _, o := range s.Ops {
				now := o.at(latest, s.Setup.bucketNs())
				if now < latest {
					return true
				}
				latest = max(latest, now)
			}
			return false
		},
		Neutral: func(s script) (script, bool) {
			s.Ops = slices.Clone(s.Ops)
			for i, o := range s.Ops {
				if o.Back > 0 {
					s.Ops[i] = op{Count: o.Count}
				}
			}
			return s, true
		},
	},
}
