package batch

import (
	"encoding/binary"
	"math"
)

// Writer appends float64 values to Bytes, little-endian, 8 bytes each. The
// zero value appends to a new slice. A Writer is not safe for concurrent
// use.
type Writer struct {
	Bytes []byte
}

// Float appends v.
func (w *Writer) Float(v float64) {
	w.Bytes = binary.LittleEndian.AppendUint64(w.Bytes, math.Float64bits(v))
}

// Bool appends 1 for true and 0 for false.
func (w *Writer) Bool(b bool) {
	if b {
		w.Float(1)
		return
	}
	w.Float(0)
}

// Offsets of what Header writes.
const (
	HeaderNow      = 0 // virtual time reached, ns
	HeaderDuration = 1 // the run's duration, ns
	HeaderDone     = 2 // 1 once the run reached its duration
	HeaderPending  = 3 // with pages: the events of all lists not yet encoded, after this batch
	HeaderEvents   = 4 // with pages: one value per page, its number of events
)

// Header appends the values a batch of a run with a duration begins with:
// nowNs, durationNs and done. With pages (one per event list of a paged
// run, in the layout's order) it then appends the events of all the lists
// left after these pages, and each page's length. Without pages it writes
// the first three values only. Values are written as float64, exact below
// 2^53.
func (w *Writer) Header(nowNs, durationNs uint64, done bool, pages ...Page) {
	w.Float(float64(nowNs))
	w.Float(float64(durationNs))
	w.Bool(done)
	if len(pages) == 0 {
		return
	}
	left := 0
	for _, p := range pages {
		left += p.Left()
	}
	w.Float(float64(left))
	for _, p := range pages {
		w.Float(float64(p.Len()))
	}
}
