package sim

import "ratelab/lab/batch"

// Encode appends b to dst in the form the browser reads, and returns the
// extended slice: first Len() float64 times in nanoseconds (little-endian,
// exact below 2^53 ns, about 104 days), then Len() accept bytes. Read it in
// JavaScript as a Float64Array over the first 8·n bytes and a Uint8Array
// over the next n.
func (b Batch) Encode(dst []byte) []byte {
	w := batch.Writer{Bytes: dst}
	for _, t := range b.Times {
		w.Float(float64(t))
	}
	return append(w.Bytes, b.Accept...)
}

// Layout of an encoded State: a header of StateHeader float64 values, then
// LaneFields values per lane in Lane order, then one value per bucket of the
// sliding window (Buckets in the header says how many).
const (
	StateNow       = 0 // virtual time, ns
	StateMessages  = 1 // messages sent
	StateLostWhole = 2 // lost credit, whole tokens
	StateLostUnits = 3 // lost credit, billionths of a token beyond the whole
	StateBound     = 4 // b + r·W
	StateStopped   = 5 // bit i set when lane i is stopped
	StateBuckets   = 6 // number of bucket counts at the end
	StateHeader    = 8

	LaneAccepted = 0
	LaneRefused  = 1
	LaneMax      = 2 // MaxInWindow
	LaneMaxAt    = 3 // MaxAt, ns
	LaneTokens   = 4 // -1 when the lane holds no tokens
	LaneCount    = 5 // -1 when the lane shows no count
	LaneFields   = 6
)

// Encode appends st to dst as little-endian float64 values in the layout
// above, and returns the extended slice. Read it in JavaScript as a
// Float64Array.
func (st *State) Encode(dst []byte) []byte {
	w := batch.Writer{Bytes: dst}
	var stopped uint64
	for i, l := range st.Lanes {
		if l.Stopped {
			stopped |= 1 << i
		}
	}
	w.Float(float64(st.NowNs))
	w.Float(float64(st.Messages))
	w.Float(float64(st.Lost.Tokens))
	w.Float(float64(st.Lost.Units))
	w.Float(float64(st.Bound))
	w.Float(float64(stopped))
	w.Float(float64(len(st.Buckets)))
	w.Float(0)
	for _, l := range st.Lanes {
		w.Float(float64(l.Accepted))
		w.Float(float64(l.Refused))
		w.Float(float64(l.MaxInWindow))
		w.Float(float64(l.MaxAt))
		if l.HasTokens {
			w.Float(float64(l.Tokens))
		} else {
			w.Float(-1)
		}
		if l.HasCount {
			w.Float(float64(l.Count))
		} else {
			w.Float(-1)
		}
	}
	for _, c := range st.Buckets {
		w.Float(float64(c))
	}
	return w.Bytes
}
