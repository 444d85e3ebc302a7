package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// pumpOver serves one websocket that pumps events (strings) with last,
// and returns the client's end and what pump reported, once it returns.
func pumpOver(t *testing.T, events <-chan string, last func(string) bool) (*websocket.Conn, <-chan bool) {
	t.Helper()
	done := make(chan bool, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer conn.CloseNow()
		ctx := conn.CloseRead(r.Context())
		write := func(e string) error { return wsjson.Write(ctx, conn, e) }
		done <- pump(ctx, conn, events, write, "resync", last)
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return conn, done
}

func read(t *testing.T, conn *websocket.Conn) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var s string
	err := wsjson.Read(ctx, conn, &s)
	return s, err
}

// TestPumpTellsASubscriberThatFellBehindToReload: when the events close,
// the page gets the resync event, then a close that asks it to reload.
func TestPumpTellsASubscriberThatFellBehindToReload(t *testing.T) {
	events := make(chan string, 2)
	events <- "one"
	close(events)
	conn, done := pumpOver(t, events, nil)
	for _, want := range []string{"one", "resync"} {
		if got, err := read(t, conn); err != nil || got != want {
			t.Fatalf("read %q, %v; want %q", got, err, want)
		}
	}
	_, err := read(t, conn)
	if code := websocket.CloseStatus(err); code != websocket.StatusTryAgainLater {
		t.Fatalf("after the resync: %v (close status %v), want a close with StatusTryAgainLater", err, code)
	}
	if <-done {
		t.Fatal("pump reported a last event, want false")
	}
}

// TestPumpStopsAfterTheLastEvent: last ends the pump right after writing
// that event, with true, and nothing after it is written.
func TestPumpStopsAfterTheLastEvent(t *testing.T) {
	events := make(chan string, 3)
	events <- "queued"
	events <- "done"
	events <- "never"
	conn, done := pumpOver(t, events, func(e string) bool { return e == "done" })
	for _, want := range []string{"queued", "done"} {
		if got, err := read(t, conn); err != nil || got != want {
			t.Fatalf("read %q, %v; want %q", got, err, want)
		}
	}
	if !<-done {
		t.Fatal("pump reported false, want true after the last event")
	}
	if len(events) != 1 {
		t.Fatalf("%d events left unread, want 1 (the one after the last)", len(events))
	}
}

// TestPumpEndsWhenTheClientGoesAway: a client that closes ends the pump
// (false) while no event comes.
func TestPumpEndsWhenTheClientGoesAway(t *testing.T) {
	conn, done := pumpOver(t, make(chan string), nil)
	conn.Close(websocket.StatusNormalClosure, "bye")
	select {
	case last := <-done:
		if last {
			t.Fatal("pump reported a last event, want false")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("pump still running 10 s after the client went away")
	}
}
