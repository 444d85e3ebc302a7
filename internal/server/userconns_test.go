package server_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"ratelab/internal/server"
)

// request sends one GET of path on conn with a learner's token and returns
// the answer's status and whether the server closes the connection after
// it.
func request(t *testing.T, conn net.Conn, br *bufio.Reader, path, token string) (int, bool) {
	t.Helper()
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nAccept: application/json\r\n\r\n", path, token)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, res.Close
}

// TestOneLearnerCannotHoldHerAddress: behind one address (a classroom's
// NAT), a learner keeps every connection she can alive with a request on
// each; she holds at most her own cap of them, and another learner behind
// the same address is still served.
func TestOneLearnerCannotHoldHerAddress(t *testing.T) {
	const perAddr, perUser = 10, 4
	f := newClassWith(t, fixtureOptions{limits: &server.Limits{MaxConns: 4 * perAddr, MaxConnsPerAddr: perAddr, MaxConnsPerUser: perUser}})
	type held struct {
		conn net.Conn
		br   *bufio.Reader
	}
	var kept []held
	for i := range perAddr {
		conn := f.rawConn(t)
		br := bufio.NewReader(conn)
		code, closing := request(t, conn, br, "/class/api/drafts/tokenbucket", adaToken)
		switch {
		case code == http.StatusOK && !closing:
			kept = append(kept, held{conn, br})
		case code == http.StatusTooManyRequests && closing:
			closedWithin(t, conn, 10*time.Second) // her place is the address's again
		default:
			t.Fatalf("ada's connection %d: %d, close %v; want 200 kept alive or 429 closed", i+1, code, closing)
		}
	}
	if len(kept) != perUser {
		t.Errorf("ada keeps %d connections alive; want her cap, %d", len(kept), perUser)
	}
	// Bob, behind the same address, is served.
	conn := f.rawConn(t)
	if code, _ := request(t, conn, bufio.NewReader(conn), "/class/api/drafts/tokenbucket", bobToken); code != http.StatusOK {
		t.Errorf("bob, behind ada's address while she holds what she can: %d; want 200", code)
	}
	// Ada's own connections go on serving her, and one she closes is a
	// place for another of hers.
	if code, closing := request(t, kept[0].conn, kept[0].br, "/class/api/drafts/gcra", adaToken); code != http.StatusOK || closing {
		t.Errorf("ada's kept connection, asked again: %d, close %v; want 200 kept alive", code, closing)
	}
	kept[1].conn.Close()
	for attempt := 0; ; attempt++ {
		// The server counts the connection closed once it has read its
		// end: until then, a new one may still be over her cap.
		conn := f.rawConn(t)
		code, _ := request(t, conn, bufio.NewReader(conn), "/class/api/drafts/tokenbucket", adaToken)
		if code == http.StatusOK {
			break
		}
		if code != http.StatusTooManyRequests || attempt == 100 {
			t.Fatalf("ada's new connection after closing one: %d; want 200", code)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
