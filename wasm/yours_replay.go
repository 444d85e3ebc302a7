//go:build !noyours

package main

// ClearIssuerLimit passes the learner's ClearIssuerLimit through: the
// operator's console does not call it, a replay of a throttle
// counterexample does (lab/replay asks the gate for it).
func (y yoursGate) ClearIssuerLimit(addr uint64) { y.g.ClearIssuerLimit(addr) }
