package breaker

// State is the state of a breaker.
type State uint8

// The states. A State above HalfOpen must never be returned.
const (
	Closed   State = iota // calls pass; consecutive failures are counted
	Open                  // calls are refused until the open period ends
	HalfOpen              // a few probes pass; their reports decide
)

// Config is a breaker's configuration. Every field must be at least 1.
type Config struct {
	FailureThreshold uint32 // consecutive failures, in Closed, that trip it open
	OpenNs           uint64 // how long it stays Open before letting probes through
	HalfOpenProbes   uint32 // calls let through in HalfOpen; that many successes close it
}

// Breaker is your circuit breaker. Its fields are yours to choose: what
// must it remember to tell a ticket of this generation from an older one,
// or from one it never issued?
type Breaker struct {
	// Your fields here.
}

// New returns a Closed breaker with cfg and its clock at nowNs, or nil and
// an error naming a field of cfg that is 0.
func New(cfg Config, nowNs uint64) (*Breaker, error) {
	panic("breaker: New is not implemented yet")
}

// Allow reports whether a call may be made at nowNs. If ok, make the call
// and report how it went with Done, passing ticket back; if not, ticket
// means nothing.
func (b *Breaker) Allow(nowNs uint64) (ticket uint64, ok bool) {
	panic("breaker: Allow is not implemented yet")
}

// Done reports the outcome of the call Allow let through with ticket. A
// ticket of an earlier generation, or one Allow never issued, is ignored.
func (b *Breaker) Done(ticket uint64, success bool, nowNs uint64) {
	panic("breaker: Done is not implemented yet")
}

// State returns the breaker's state at nowNs.
func (b *Breaker) State(nowNs uint64) State {
	panic("breaker: State is not implemented yet")
}
