// Package hierarchy is the reference hierarchical rate limiter for week 3 of
// ratelab: token buckets nested in a tree (a firm, its accounts, their
// sessions), where a message must pass every level on its path.
//
// Every node is a token bucket with exactly the units model of package
// tokenbucket: 1 token = 10^9 units, a node starts full, refills
// elapsed×ratePerSec units capped at capacity×10^9, and every uint64 value
// is legal. The tree keeps ONE latest time seen; every node earns for all
// the time the tree's clock advanced, whether or not it was on the path of
// the calls in between. TryAcquire is all or nothing across the path: it
// checks every level first and charges every level only if all of them can
// pay.
//
// Time is always an argument (nowNs): the package never reads a clock. A
// Tree is not safe for concurrent use.
package hierarchy
