package server

import (
	"net"
	"net/http"
	"time"

	"golang.org/x/net/netutil"
)

// Limits bounds what clients may hold of the server: how long a request
// may take to arrive and to be answered, how long an idle connection is
// kept, and how many connections are open at once. The zero value of each
// field means its default.
type Limits struct {
	// ReadHeaderTimeout bounds the arrival of a request's headers; 0 means 5s.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds the arrival of a whole request, headers and body,
	// on every route (the largest is an upload of 320 KiB); 0 means 30s.
	// A client that sends its body slowly is cut off there.
	ReadTimeout time.Duration
	// WriteTimeout bounds answering a request; 0 means 60s. It does not
	// apply to a websocket: net/http clears a connection's deadlines when
	// it is taken over, and the live views bound their own writes.
	WriteTimeout time.Duration
	// IdleTimeout closes a kept-alive connection that sends no request
	// for that long; 0 means 60s.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds a request's headers; 0 means 64 KiB.
	MaxHeaderBytes int
	// MaxConns bounds the connections open at once, websockets included;
	// 0 means 512. Beyond, new connections wait (in the kernel's backlog)
	// until one closes.
	MaxConns int
}

func (l Limits) withDefaults() Limits {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&l.ReadHeaderTimeout, 5*time.Second)
	def(&l.ReadTimeout, 30*time.Second)
	def(&l.WriteTimeout, 60*time.Second)
	def(&l.IdleTimeout, 60*time.Second)
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = 64 << 10
	}
	if l.MaxConns <= 0 {
		l.MaxConns = 512
	}
	return l
}

// HTTPServer returns a server of h with l's timeouts.
func HTTPServer(h http.Handler, l Limits) *http.Server {
	l = l.withDefaults()
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
	}
}

// Listener returns ln accepting at most l.MaxConns connections open at
// once (netutil.LimitListener): Accept waits for one to close.
func Listener(ln net.Listener, l Limits) net.Listener {
	return netutil.LimitListener(ln, l.withDefaults().MaxConns)
}
