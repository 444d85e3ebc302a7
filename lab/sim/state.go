package sim

import "ratelab/lab/limiters"

// LaneState is what one lane shows at a moment of the run.
type LaneState struct {
	Accepted uint64 // messages accepted so far
	Refused  uint64 // messages refused so far (a stopped lane counts neither)

	// MaxInWindow is the peak: the most accepted messages in any interval
	// [a, a+W). MaxAt is the time of the first of them.
	MaxInWindow uint64
	MaxAt       uint64

	Tokens    uint64 // whole tokens held, when HasTokens
	HasTokens bool
	Count     uint32 // messages in the limiter's window now, when HasCount
	HasCount  bool

	Stopped bool
	Status  string // why the lane stopped, e.g. guard.NotImplemented; empty while it runs
}

// State is a snapshot of a run, as State fills it.
type State struct {
	NowNs    uint64 // virtual time reached
	Messages uint64 // messages sent so far

	Lanes [NumLanes]LaneState

	// Buckets holds the sliding window's accepted count per bucket at
	// NowNs, oldest first, the current bucket last: K numbers, or none
	// when that lane is stopped.
	Buckets []uint32

	// Lost is the credit the token bucket lane lost: under Naive refill,
	// what the lab's naive bucket has thrown away so far; under Exact, the
	// whole tokens an exact bucket that accepted the same messages would
	// hold beyond the lane's (zero for a bucket that refills exactly).
	Lost limiters.Credit

	// Bound is b + r·W: the most a token bucket may accept in any interval
	// of length W, to compare with the token bucket's MaxInWindow.
	Bound uint64
}

// State fills st with a snapshot of the run at Now, reusing st.Buckets.
// Asking a lane for its state may panic in learner code; that stops the
// lane like a panic in Step.
func (s *Sim) State(st *State) {
	st.NowNs, st.Messages = s.now, s.messages
	st.Bound = s.cfg.Bound()
	st.Buckets = st.Buckets[:0]
	st.Lost = limiters.Credit{}
	for id := range s.lanes {
		l := &s.lanes[id]
		ls := &st.Lanes[id]
		if !l.stopped {
			s.inspect(l, ls, st)
		}
		if Lane(id) == TokenBucket && s.exact != nil && !l.stopped && ls.HasTokens {
			st.Lost = s.exact.lost(s.now, ls.Tokens)
		}
		ls.Accepted, ls.Refused = l.accepted, l.refused
		ls.MaxInWindow, ls.MaxAt = l.peak.Max(), l.peak.MaxAt()
		ls.Stopped, ls.Status = l.stopped, l.status
		if l.stopped {
			ls.HasTokens, ls.HasCount = false, false
		}
	}
}

// inspect fills ls (and st.Buckets, st.Lost) from the views l.lim offers.
func (s *Sim) inspect(l *lane, ls *LaneState, st *State) {
	defer func() {
		if v := recover(); v != nil {
			l.stop(v)
			st.Buckets = st.Buckets[:0]
		}
	}()
	ls.HasTokens, ls.HasCount = false, false
	if h, ok := l.lim.(Holder); ok {
		ls.Tokens, ls.HasTokens = h.Tokens(s.now), true
	}
	if c, ok := l.lim.(Counter); ok {
		ls.Count, ls.HasCount = c.Count(s.now), true
	}
	if b, ok := l.lim.(Bucketed); ok {
		st.Buckets = b.Buckets(st.Buckets, s.now)
	}
	if lossy, ok := l.lim.(Lossy); ok {
		st.Lost = lossy.Lost()
	}
}
