package server_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"ratelab/internal/server"
)

// These tests hold connections open as a hostile client would, against
// lowered limits, and check the server lets go of them.

// rawConn dials the fixture's server.
func (f *classFixture) rawConn(t *testing.T) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(f.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// closedWithin reads conn until the server closes it, for at most d, and
// returns what it read; it fails the test if the server keeps it open.
func closedWithin(t *testing.T, conn net.Conn, d time.Duration) string {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(d))
	b, err := io.ReadAll(conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server kept the connection open for %s (read %q)", d, b)
	}
	return string(b)
}

func TestSlowBodyIsCutOff(t *testing.T) {
	f := newClassWith(t, fixtureOptions{limits: &server.Limits{ReadTimeout: 200 * time.Millisecond}})
	conn := f.rawConn(t)
	// A sign-in form that promises 1000 bytes and sends 10, then nothing.
	fmt.Fprintf(conn, "POST /class/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ntoken=rl_a")
	closedWithin(t, conn, 10*time.Second)
}

func TestIdleConnectionsAreClosed(t *testing.T) {
	f := newClassWith(t, fixtureOptions{limits: &server.Limits{ReadHeaderTimeout: 200 * time.Millisecond, IdleTimeout: 200 * time.Millisecond}})

	t.Run("after a request", func(t *testing.T) {
		conn := f.rawConn(t)
		fmt.Fprintf(conn, "GET /static/lab.css HTTP/1.1\r\nHost: x\r\n\r\n")
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		if res.StatusCode != http.StatusOK || res.Close {
			t.Fatalf("GET /static/lab.css = %d, close %v; want 200 kept alive", res.StatusCode, res.Close)
		}
		closedWithin(t, conn, 10*time.Second)
	})

	// Under /class, a stranger's connection is not kept alive at all.
	t.Run("a stranger under /class", func(t *testing.T) {
		conn := f.rawConn(t)
		fmt.Fprintf(conn, "GET /class/login HTTP/1.1\r\nHost: x\r\n\r\n")
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		if res.StatusCode != http.StatusOK || !res.Close {
			t.Fatalf("GET /class/login from nobody = %d, close %v; want 200 and Connection: close", res.StatusCode, res.Close)
		}
		closedWithin(t, conn, 10*time.Second)
	})

	t.Run("before any request", func(t *testing.T) {
		closedWithin(t, f.rawConn(t), 10*time.Second)
	})
}

func TestConnectionCap(t *testing.T) {
	f := newClassWith(t, fixtureOptions{limits: &server.Limits{MaxConns: 2, MaxConnsPerAddr: 2, ReadHeaderTimeout: time.Minute}})
	// Two connections that send nothing hold both places.
	holders := []net.Conn{f.rawConn(t), f.rawConn(t)}
	got := make(chan error, 1)
	go func() {
		c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}
		res, err := c.Get(f.url + "/class/login")
		if err == nil {
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				err = fmt.Errorf("status %d", res.StatusCode)
			}
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("a third connection was served (%v) while two held the cap of 2; want it to wait", err)
	case <-time.After(300 * time.Millisecond):
	}
	holders[0].Close()
	select {
	case err := <-got:
		if err != nil {
			t.Errorf("GET /class/login once a place freed: %v; want 200", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("GET /class/login was not served within 20s of a place freeing")
	}
}

func TestAnonymousUploadIsNotRead(t *testing.T) {
	f := newClass(t)
	conn := f.rawConn(t)
	// Headers of a big upload, a little of its body, then nothing: the
	// refusal must come without the server waiting for (or parsing) it.
	fmt.Fprintf(conn, "POST /class/submissions HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 200000\r\n\r\n--b\r\n")
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("POST /class/submissions signed out, body unsent: %v; want an answer at once", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("POST /class/submissions signed out = %d; want 401", res.StatusCode)
	}
}

func TestLiveViewsPerUser(t *testing.T) {
	f := newClassWith(t, fixtureOptions{class: server.Class{MaxLivePerUser: 2}})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	ada := http.Header{"Authorization": {"Bearer " + adaToken}}
	path := fmt.Sprintf("/class/submissions/%d/live", f.submit(t, adaToken)) // queued: its view stays open
	first := f.dial(t, ctx, path, ada)
	read(t, ctx, first)
	read(t, ctx, f.dial(t, ctx, path, ada))

	_, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(f.url, "http")+path, &websocket.DialOptions{HTTPHeader: ada})
	if err == nil {
		t.Fatal("a third live view of ada's was accepted; want 429")
	}
	if res == nil || res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Fatalf("a third live view: %v (response %+v); want 429 with Retry-After", err, res)
	}
	body, _ := io.ReadAll(res.Body)
	if !strings.Contains(string(body), "2 live views open already") {
		t.Errorf("a third live view: %s; want a message saying 2 are open already", body)
	}
	// Bob's are his own.
	read(t, ctx, f.dial(t, ctx, fmt.Sprintf("/class/submissions/%d/live", f.submit(t, bobToken)), http.Header{"Authorization": {"Bearer " + bobToken}}))

	// Closing one gives its place back (once the server sees it closed).
	first.Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(10 * time.Second)
	for {
		conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(f.url, "http")+path, &websocket.DialOptions{HTTPHeader: ada})
		if err == nil {
			conn.CloseNow()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a live view after closing one: %v; want it accepted", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A live view outlives the server's read and write timeouts. Only the
// websocket goes through the server with the short timeouts; the sign-in
// and the submission that makes the event go through the same handler
// served without them, so that no verdict depends on how fast a busy
// machine answers an ordinary request.
func TestLiveViewOutlivesRequestTimeouts(t *testing.T) {
	const timeout = time.Second
	f := newClassWith(t, fixtureOptions{limits: &server.Limits{ReadTimeout: timeout, WriteTimeout: timeout}})
	relaxed := httptest.NewServer(f.handler)
	defer relaxed.Close()
	plain := *f
	plain.url, plain.transport = relaxed.URL, relaxed.Client().Transport
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	prof := plain.instructor(t)
	u, _ := url.Parse(f.url + "/class") // the same host: the cookies hold for both ports
	var cookies []string
	for _, c := range prof.c.Jar.Cookies(u) {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	dash := f.dial(t, ctx, "/class/dashboard/live", http.Header{"Cookie": {strings.Join(cookies, "; ")}})
	read(t, ctx, dash) // hello
	// Past both timeouts, the websocket still carries events both ways.
	time.Sleep(timeout + timeout/2)
	id := plain.submit(t, adaToken)
	if e := read(t, ctx, dash); e.Submission != id {
		t.Errorf("dashboard after the request timeouts passed: %+v; want ada's submission %d", e, id)
	}
}

// One client address cannot hold the server: its connections past a
// quarter of the places are answered 429 and closed at once, and a client
// from another address is served at once. Before, 530 kept-alive
// connections from one client, each asking for the sign-in page every
// 20 s, held every place: new connections waited 136 s.
func TestOneAddressCannotHoldTheServer(t *testing.T) {
	f := newClassWith(t, fixtureOptions{limits: &server.Limits{MaxConns: 8, ReadHeaderTimeout: time.Minute}})
	other := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}, Timeout: 5 * time.Second}
	if c, err := other.Dial("tcp", strings.TrimPrefix(f.url, "http://")); err != nil {
		t.Skipf("cannot connect from 127.0.0.2 (%v): this test needs a second loopback address", err)
	} else {
		c.Close()
	}
	// The attacker opens as many connections as there are places; they
	// send nothing, as if about to.
	// Each is read at once, for 5 s: a refused one reads its 429 and its
	// end long before, however busy the machine; a held one reads nothing.
	conns := make([]net.Conn, 8)
	for i := range conns {
		conns[i] = f.rawConn(t)
	}
	type read struct {
		b   []byte
		err error
	}
	reads := make(chan read, len(conns))
	for _, conn := range conns {
		go func() {
			conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			b, err := io.ReadAll(conn)
			reads <- read{b, err}
		}()
	}
	held, refused := 0, 0
	for range conns {
		r := <-reads
		var ne net.Error
		switch {
		case errors.As(r.err, &ne) && ne.Timeout() && len(r.b) == 0:
			held++ // still open
		case strings.HasPrefix(string(r.b), "HTTP/1.1 429 ") && strings.Contains(string(r.b), "Retry-After: 1"):
			refused++
		default:
			t.Fatalf("a connection past its address's cap read %q, %v; want 429 with Retry-After", r.b, r.err)
		}
	}
	if held != 2 || refused != 6 {
		t.Errorf("8 connections from one address: %d held, %d refused; want 2 held (a quarter of 8) and 6 refused", held, refused)
	}
	// Another address is served at once.
	c := &http.Client{Transport: &http.Transport{DialContext: other.DialContext, DisableKeepAlives: true}, Timeout: 5 * time.Second}
	res, err := c.Get(f.url + "/class/login")
	if err != nil {
		t.Fatalf("GET /class/login from another address while one holds its cap: %v; want it served", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("GET /class/login from another address = %d; want 200", res.StatusCode)
	}
}
