package server

import (
	"context"
	"net"
	"net/http"
	"sync"
)

// userConns bounds the connections one signed-in user (a learner, an
// instructor) holds open at once, inside the per-address cap: behind one
// NAT, a learner who keeps connections alive (one request each every 20 s
// kept every place of the address) holds at most max of them, and the
// others' requests still find places. A connection is the user's from
// its first request signed in as them until it closes or becomes a
// websocket (the live views have a cap of their own). A request of a user
// who holds max connections, on a connection of none of theirs, is
// answered 429 and the connection closed. Its methods are safe for
// concurrent use.
type userConns struct {
	max int

	mu    sync.Mutex
	n     map[int64]int
	conns map[net.Conn]*connOwner
}

// connOwner is whose a connection is, if anyone's yet.
type connOwner struct {
	user  int64
	owned bool
}

func newUserConns(max int) *userConns {
	return &userConns{max: max, n: map[int64]int{}, conns: map[net.Conn]*connOwner{}}
}

// connKey is the context key of a request's connection's owner.
type connKey struct{}

// track makes the server count its connections' owners (http.Server's
// ConnContext and ConnState).
func (u *userConns) track(s *http.Server) {
	s.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		o := &connOwner{}
		u.mu.Lock()
		u.conns[c] = o
		u.mu.Unlock()
		return context.WithValue(ctx, connKey{}, &ownedConn{u: u, o: o})
	}
	s.ConnState = func(c net.Conn, st http.ConnState) {
		if st != http.StateClosed && st != http.StateHijacked {
			return
		}
		u.mu.Lock()
		defer u.mu.Unlock()
		if o := u.conns[c]; o != nil {
			u.disown(o)
			delete(u.conns, c)
		}
	}
}

// disown counts o's connection no longer its user's. u.mu is held.
func (u *userConns) disown(o *connOwner) {
	if o.owned {
		if u.n[o.user]--; u.n[o.user] <= 0 {
			delete(u.n, o.user)
		}
		o.owned = false
	}
}

// ownedConn is a request's connection, as its context carries it.
type ownedConn struct {
	u *userConns
	o *connOwner
}

// claimConn counts the request's connection as user's and reports whether
// that is within the user's cap. A request served without userConns (a
// server not made by HTTPServer) is always within it.
func claimConn(ctx context.Context, user int64) bool {
	c, _ := ctx.Value(connKey{}).(*ownedConn)
	if c == nil {
		return true
	}
	u := c.u
	u.mu.Lock()
	defer u.mu.Unlock()
	if c.o.owned && c.o.user == user {
		return true
	}
	if u.n[user] >= u.max {
		return false
	}
	u.disown(c.o) // signed in as someone else on the same connection
	c.o.user, c.o.owned = user, true
	u.n[user]++
	return true
}
