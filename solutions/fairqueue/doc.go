// Package fairqueue is the reference fair queue for week 3 of ratelab:
// deficit round robin (Shreedhar and Varghese, "Efficient fair queueing
// using deficit round robin", 1995), serving one command per Pop.
//
// Each session has a FIFO of command costs and a deficit; the round is a
// FIFO of the sessions with commands waiting. A session's turn starts with
// quantum added to its deficit; it is served while its first command costs
// at most its deficit; a session left with nothing waiting loses its
// deficit and leaves the round; one whose next command costs more goes to
// the end of the round, keeping its deficit. Over any interval in which
// two sessions stay backlogged, the costs served to them differ by less
// than 2×quantum + the largest cost.
//
// The queue does not read a clock and is not safe for concurrent use. In
// steady state (the same sessions coming back, queues no longer than
// before) it allocates nothing.
package fairqueue
