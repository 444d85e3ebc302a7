// Package batch writes the batches in which the lab's visualizations hand
// a run's state to JavaScript: float64 values, little-endian, that the page
// reads as one Float64Array (Writer), and the paging of a run's event lists
// into batches of a bounded size (Page).
//
// It knows no visualization's layout: each package that encodes a run
// (lab/breaker, lab/gateway, lab/throttle, ...) declares its own offsets
// and writes its values in that order. What their layouts share is here:
// the leading now, duration and done of a run with a duration and, for a
// run whose events go out in pages, the events left and each page's length
// after them (Writer.Header, the Header offsets).
package batch
