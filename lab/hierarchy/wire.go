package hierarchy

import "ratelab/lab/batch"

// Layout of an encoded Run (see Encode): a header of Header float64
// values, then SideFields values for the leaky side and as many for the
// tree. A side is its Side* fields, then SessionFields values per session.
const (
	HeaderNow      = batch.HeaderNow      // virtual time reached, ns
	HeaderDuration = batch.HeaderDuration // the run's duration, ns
	HeaderDone     = batch.HeaderDone     // 1 once the run reached its duration
	Header         = HeaderDone + 1

	SideStopped   = 0 // 1 once the side stopped (see ImplStatus)
	SideLost      = 1 // Side.Lost
	SideAvailable = 2 // NumNodes values: Side.Available
	SideSessions  = SideAvailable + NumNodes
	SideFields    = SideSessions + NumSessions*SessionFields

	SessOrders   = 0
	SessAttempts = 1
	SessAccepted = 2
	SessRefused  = 3 // NumLevels values, by Level
	SessGaveUp   = SessRefused + int(NumLevels)
	SessLost     = SessGaveUp + 1
	// SessionFields is the number of values per session.
	SessionFields = SessLost + 1
)

// EncodedLen is the length in bytes of an encoded Run.
const EncodedLen = 8 * (Header + 2*SideFields)

// Encode appends the run's state to dst as little-endian float64 values
// in the layout above, and returns the extended slice. Read it in
// JavaScript as a Float64Array.
func (r *Run) Encode(dst []byte) []byte {
	w := batch.Writer{Bytes: dst}
	w.Header(r.now, r.cfg.DurationNs, r.Done())
	for _, sd := range []*Side{&r.Leaky, &r.Tree} {
		w.Bool(sd.Stopped)
		w.Float(float64(sd.Lost))
		for _, a := range sd.Available {
			w.Float(float64(a))
		}
		for _, c := range sd.Sessions {
			w.Float(float64(c.Orders))
			w.Float(float64(c.Attempts))
			w.Float(float64(c.Accepted))
			for _, n := range c.Refused {
				w.Float(float64(n))
			}
			w.Float(float64(c.GaveUp))
			w.Float(float64(c.Lost))
		}
	}
	return w.Bytes
}
