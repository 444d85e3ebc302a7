// Package gateway is the reference order-entry gateway of week 3 of ratelab:
// the policy around a token bucket.
//
// Every session gets two week-1 token buckets from its class: one for new
// orders and modifies, one of its own for cancels (or none: unlimited), so
// that a client can always pull its risk out of the market. Heartbeats
// cost nothing. A session that keeps sending into an empty bucket is in a
// flood: its refusals escalate by the flood's age, from Reject to Silent to
// Disconnect. Budgets belong to the session id, not to the connection: a
// reconnect never refills them. The configuration is validated and can be
// reloaded while sessions are open.
//
// Time is always an argument, in nanoseconds on any monotonic clock: the
// package never reads a clock. The gateway has one clock, the latest time
// any call brought; an earlier time counts as that latest time.
//
// A Gateway is not safe for concurrent use: the reader task that owns the
// sessions calls it.
package gateway
