package nesting

import (
	"encoding/binary"
	"math"
)

// Layout of an encoded Run (see Encode): a header of Header float64
// values, then SideFields values for the leaky side and as many for the
// tree. A side is its Side* fields, then SessionFields values per session.
const (
	HeaderNow      = 0 // virtual time reached, ns
	HeaderDuration = 1 // the run's duration, ns
	HeaderDone     = 2 // 1 once the run reached its duration
	Header         = 3

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
	put := func(v float64) { dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v)) }
	b := func(x bool) float64 {
		if x {
			return 1
		}
		return 0
	}
	put(float64(r.now))
	put(float64(r.cfg.DurationNs))
	put(b(r.Done()))
	for _, sd := range []*Side{&r.Leaky, &r.Tree} {
		put(b(sd.Stopped))
		put(float64(sd.Lost))
		for _, a := range sd.Available {
			put(float64(a))
		}
		for _, c := range sd.Sessions {
			put(float64(c.Orders))
			put(float64(c.Attempts))
			put(float64(c.Accepted))
			for _, n := range c.Refused {
				put(float64(n))
			}
			put(float64(c.GaveUp))
			put(float64(c.Lost))
		}
	}
	return dst
}
