package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"ratelab/internal/class"
	"ratelab/internal/event"
	"ratelab/internal/store/storetest"
)

// dial opens a websocket of the class with the given headers.
func (f *classFixture) dial(t *testing.T, ctx context.Context, path string, header http.Header) *websocket.Conn {
	t.Helper()
	conn, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(f.url, "http")+path, &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		code := 0
		if res != nil {
			code = res.StatusCode
		}
		t.Fatalf("dial %s: %v (status %d)", path, err, code)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return conn
}

func read(t *testing.T, ctx context.Context, conn *websocket.Conn) class.Event {
	t.Helper()
	var e class.Event
	if err := wsjson.Read(ctx, conn, &e); err != nil {
		t.Fatalf("reading an event: %v", err)
	}
	return e
}

func TestClassLive(t *testing.T) { storetest.Each(t, testClassLive) }

func testClassLive(t *testing.T, target string) {
	f := newClassWith(t, fixtureOptions{target: target})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	ada := http.Header{"Authorization": {"Bearer " + adaToken}}

	graded := f.submit(t, adaToken)
	f.finish(t, 30)
	queued := f.submit(t, adaToken)

	// A graded submission: its done event, then a normal close.
	conn := f.dial(t, ctx, fmt.Sprintf("/class/submissions/%d/live", graded), ada)
	if e := read(t, ctx, conn); e.Type != event.Grade || e.Submission != graded || e.Summary == nil || e.Score != 30 || e.MaxScore != 35 {
		t.Errorf("live view of a graded submission: first event %+v; want done with its score 30 / 35", e)
	}
	if _, _, err := conn.Read(ctx); websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		t.Errorf("after done: %v; want a normal close", err)
	}

	// A queued one: its state as an event, not a job state passed on.
	conn = f.dial(t, ctx, fmt.Sprintf("/class/submissions/%d/live", queued), ada)
	if e := read(t, ctx, conn); e.Type != event.Queued || e.Submission != queued || e.Learner != "ada" {
		t.Errorf("live view of a queued submission: first event %+v; want queued", e)
	}

	// The dashboard: hello, then every submission's queued event.
	prof := f.instructor(t)
	u, _ := url.Parse(f.url + "/class")
	var cookies []string
	for _, c := range prof.c.Jar.Cookies(u) {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	dash := f.dial(t, ctx, "/class/dashboard/live", http.Header{"Cookie": {strings.Join(cookies, "; ")}})
	if e := read(t, ctx, dash); e.Type != event.Hello {
		t.Fatalf("dashboard: first event %+v; want hello", e)
	}
	id := f.submit(t, bobToken) // subscribed before hello was sent: this one is seen
	if e := read(t, ctx, dash); e.Type != event.Queued || e.Submission != id || e.Learner != "bob" || e.Exercise != "tokenbucket" {
		t.Errorf("dashboard after bob submits: %+v; want bob's tokenbucket queued", e)
	}
}
