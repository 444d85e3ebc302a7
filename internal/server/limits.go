package server

import (
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
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
	// MaxConnsPerAddr bounds the connections one client address (IPv6 by
	// /64) holds open at once, so that one client can never hold the
	// server: 0 means a quarter of MaxConns (128 of 512: a classroom
	// behind one NAT still fits). A connection past it is answered 429
	// with Retry-After and closed at once, without waiting for a place.
	MaxConnsPerAddr int
	// MaxConnsPerUser bounds the connections one signed-in user holds
	// open at once (see userConns), inside MaxConnsPerAddr, so that one
	// account cannot hold its address: 0 means 16 (a browser opens 6 to
	// a server; two browsers and the submit command fit). A request past
	// it is answered 429 with Retry-After, and its connection closed.
	MaxConnsPerUser int
	// TrustedProxies are the addresses of reverse proxies in front of the
	// server: their connections carry many clients, so MaxConnsPerAddr
	// does not bound them, and a request through one is the client's named
	// last in X-Forwarded-For (see clientAddress). None by default: the
	// header is the client's own words.
	TrustedProxies []netip.Prefix
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
	if l.MaxConnsPerAddr <= 0 {
		l.MaxConnsPerAddr = max(1, l.MaxConns/4)
	}
	if l.MaxConnsPerUser <= 0 {
		l.MaxConnsPerUser = 16
	}
	return l
}

// HTTPServer returns a server of h with l's timeouts, counting each
// signed-in user's connections (MaxConnsPerUser).
func HTTPServer(h http.Handler, l Limits) *http.Server {
	l = l.withDefaults()
	s := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
	}
	newUserConns(l.MaxConnsPerUser).track(s)
	return s
}

// Listener returns ln accepting at most l.MaxConns connections open at
// once (netutil.LimitListener: Accept waits for one to close), and at most
// l.MaxConnsPerAddr from one client address (perAddr).
func Listener(ln net.Listener, l Limits) net.Listener {
	l = l.withDefaults()
	return netutil.LimitListener(&perAddr{Listener: ln, max: l.MaxConnsPerAddr, trusted: l.TrustedProxies, open: map[string]int{}}, l.MaxConns)
}

// perAddr is a listener that answers a connection from an address that
// already holds max with 429 and closes it, and counts the others until
// they close. Trusted proxies are not counted.
type perAddr struct {
	net.Listener
	max     int
	trusted []netip.Prefix

	mu   sync.Mutex
	open map[string]int
}

// tooManyConns is what a connection past its address's cap reads before
// it is closed.
var tooManyConns = func() string {
	body := "Too many connections from your address: close some and try again in a second.\n"
	return "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nConnection: close\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}()

func (l *perAddr) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := remoteIP(c.RemoteAddr())
		if ip.IsValid() && inPrefixes(ip, l.trusted) {
			return c, nil
		}
		key := addressKey(ip, c.RemoteAddr().String())
		l.mu.Lock()
		over := l.open[key] >= l.max
		if !over {
			l.open[key]++
		}
		l.mu.Unlock()
		if over {
			c.SetWriteDeadline(time.Now().Add(time.Second))
			io.WriteString(c, tooManyConns)
			c.Close()
			continue
		}
		return &countedConn{Conn: c, release: func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if l.open[key]--; l.open[key] <= 0 {
				delete(l.open, key)
			}
		}}, nil
	}
}

// countedConn releases its place in perAddr's count once, on Close.
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// remoteIP is a's IP, unmapped; not valid if a is not an IP address.
func remoteIP(a net.Addr) netip.Addr {
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap()
}

// addressKey is the key of a client's budgets: its IP, an IPv6 one cut to
// its /64 (one host may hold a whole /64); raw when it is no IP.
func addressKey(ip netip.Addr, raw string) string {
	if !ip.IsValid() {
		return raw
	}
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

func inPrefixes(ip netip.Addr, ps []netip.Prefix) bool {
	for _, p := range ps {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}
