package class

import "time"

// Away is the last time this process lost the database (Postgres: the
// connection that hears the other processes), for the dashboard to say:
// From when it was lost, To when it was reached again (zero while it is
// still away).
type Away struct {
	From, To time.Time
}

// DatabaseAway returns the last time the database was away, zero if never
// since the server started.
func (c *Class) DatabaseAway() Away {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.away
}

// lostDatabase notes that the database is away since now, unless it was
// already.
func (c *Class) lostDatabase(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.away.From.IsZero() || !c.away.To.IsZero() {
		c.away = Away{From: now}
	}
}

// reachedDatabase notes that the database answers again at now, and
// reports whether it was away.
func (c *Class) reachedDatabase(now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.away.From.IsZero() || !c.away.To.IsZero() {
		return false
	}
	c.away.To = now
	return true
}
