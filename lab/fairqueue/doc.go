// Package fairqueue runs week 3's contention at the engine: six sessions
// share an engine that serves a fixed number of cost units per second, and
// three schedulers decide, from the same arrivals, which waiting command
// the engine takes next. Each scheduler has an engine of its own, so that
// the three can be watched side by side.
//
// The sessions (see DefaultConfig): A, the burster, fires bursts of
// Config.BurstSize commands of cost 1 at Config.BurstRate times its share
// of the engine, one burst every Config.PeriodNs; B sends commands of
// Config.HeavyCost at a steady Config.HeavyLoad of the engine's capacity;
// C to F send commands of cost 1, Config.LightRate a second each. B to F
// arrive as Poisson streams drawn from the seed.
//
// The lanes are:
//
//   - FIFO: one shared queue in arrival order.
//   - RR: plain round robin, one command per session per turn, whatever
//     it costs.
//   - DRR: deficit round robin with Config.Quantum, as an Impl builds it:
//     the reference (ratelab/solutions/fairqueue) or the learner's code.
//     Code other than the reference may panic or answer what was never
//     pushed; that stops the DRR lane, with the reason in its Status,
//     while FIFO and RR go on.
//
// For each lane and session the run measures the cost served, the
// queueing delay (from arrival to the start of service; p50 and p99 from
// a histogram), the share of the engine over the last second and its peak,
// the commands sequenced out of arrival order (served after a command that
// arrived later: the price of fairness, always 0 for FIFO), and, for every
// pair of sessions, the largest difference between the costs served to
// them over an interval in which both had commands waiting. Shreedhar and
// Varghese's bound for DRR is that this difference stays below 2×quantum
// plus the largest cost (Run.Bound).
//
// The run is cut into bins of BinNs for drawing: each Bin holds, for each
// lane and session, the engine time the session used in that bin.
//
// Nothing here reads a clock. The same Config and Impl give the same bins
// however the run is cut into Steps.
package fairqueue
