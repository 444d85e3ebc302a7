// Package retry is the client side of the week 4 lab: a tries wrapper that
// retries a failed attempt until its request succeeds or runs out of tries,
// and counts what happened in two planes.
//
// The request plane is what a dashboard shows: of the requests that
// finished, how many succeeded ("ok %"). The attempt plane is what the
// target lived through: of the attempts it resolved, how many failed. With
// three tries and a third of all attempts failing, more than 96% of
// requests still succeed: the wrapper absorbs the rejections, the ok %
// stays green, and only the attempt plane shows that the target is
// saturated. An adaptive client must read the attempt plane.
//
// A Client is closed-loop: it is given a number of concurrent slots per
// round, fills them with the retries it owes first and with new requests
// after, and never runs out of requests to send. Which attempts of a round
// fail is drawn from a seeded generator, so a run is deterministic. It
// reads no clock and is not safe for concurrent use.
package retry
