// Package gradient2 runs the week 4 Gradient2 limit in front of a server
// whose latency grows with its queue, under steps of load, in virtual
// time.
//
// Requests arrive as a Poisson stream whose rate follows Config.Steps, a
// repeating schedule of loads given as multiples of what the server can
// complete. A request that finds as many requests in flight as the limit
// allows is rejected on the spot; the others join the server (a
// target.Queue) and, when they complete, their round-trip time and the
// number in flight when they were sent are one sample for the limit's
// Update. The run keeps its own copy of the long RTT, computed as the
// exercise defines it, so that the long and the short RTT can be shown
// beside the limit whatever implementation runs.
//
// The run is cut into bins of BinNs for drawing: each Bin holds the load,
// the limit, the RTTs and the counts of its slice of time. The limit comes
// from an adaptive.Impl; code other than the reference may panic, which
// stops the run with the reason in Status.
//
// Nothing here reads a clock. The same Config and Impl give the same bins
// however the run is cut into Steps.
package gradient2
