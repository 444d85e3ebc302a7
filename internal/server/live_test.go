package server_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"ratelab/grader/report"
	"ratelab/internal/event"
	"ratelab/internal/live"
	"ratelab/internal/server"
)

// The live websocket says hello with the saved grades and the build, then
// passes on the hub's events with the badges' text, and the report
// rendered for the page of that exercise only.
func TestLiveSocket(t *testing.T) {
	hub := &live.Hub{}
	hub.Publish(live.Event{Type: event.Built, Version: 2})
	srv := httptest.NewServer(server.New(server.Config{Reports: reports(), Static: committedStatic(), Live: hub}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	dial := func(query string) *websocket.Conn {
		conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/live"+query, nil)
		if err != nil {
			t.Fatalf("dialing /live%s: %v", query, err)
		}
		var hello live.Event
		if err := wsjson.Read(ctx, conn, &hello); err != nil {
			t.Fatal(err)
		}
		if hello.Type != event.Hello || hello.Version != 2 || len(hello.Grades) != 1 {
			t.Fatalf("hello = %+v; want version 2 and tokenbucket's grade", hello)
		}
		if g := hello.Grades[0]; g.Label != "failed" || g.Points != "20 / 35" || g.Class != "badge badge--failed" || g.When == "" {
			t.Errorf("hello's grade = %+v; want its badge as the pages write it", g)
		}
		return conn
	}
	page, other := dial("?exercise=gcra"), dial("")
	defer page.CloseNow()
	defer other.CloseNow()
	if n := hub.Subscribers(); n != 2 {
		t.Fatalf("%d subscribers after two hellos; want 2", n) // each subscribes before its hello
	}
	ex := &report.Exercise{ID: "gcra", Status: report.Failed, Score: 20, MaxScore: 25,
		Checks: []report.Check{{ID: "gcra/exactness", Title: "Agrees", Status: report.Passed, Score: 20, MaxScore: 20}}}
	g := live.GradeOf(ex, time.Date(2026, 3, 2, 9, 31, 0, 0, time.UTC), 1, true)
	hub.Publish(live.Event{Type: event.Grade, Grade: &g})
	var got live.Event
	if err := wsjson.Read(ctx, page, &got); err != nil {
		t.Fatal(err)
	}
	if got.Type != event.Grade || got.Grade.Label != "failed so far" || got.Grade.Points != "20 / 25" {
		t.Errorf("grade event = %+v; want gcra failed so far, 20 / 25", got.Grade)
	}
	if !strings.Contains(got.Report, `data-testid="grade-gcra"`) || !strings.Contains(got.Report, "Agrees") {
		t.Errorf("the exercise page's report is not rendered: %q", got.Report)
	}
	got = live.Event{}
	if err := wsjson.Read(ctx, other, &got); err != nil {
		t.Fatal(err)
	}
	if got.Report != "" || got.Grade == nil || got.Grade.Exercise != "gcra" {
		t.Errorf("another page got %+v; want gcra's grade without a report", got)
	}
}

// Without a live hub, there is no /live and the pages load no live.js.
func TestNoLiveWithoutHub(t *testing.T) {
	h := server.New(server.Config{Reports: reports(), Static: committedStatic()})
	if r := get(t, h, "/live"); r.StatusCode != 404 {
		t.Errorf("GET /live without a hub = %d; want 404", r.StatusCode)
	}
	if r := get(t, h, "/"); strings.Contains(r.body, "live.js") {
		t.Error("the home page loads live.js without a live hub")
	}
	h = server.New(server.Config{Reports: reports(), Static: committedStatic(), Live: &live.Hub{}})
	if r := get(t, h, "/exercises/gcra"); !strings.Contains(r.body, `src="/static/live.js"`) || !strings.Contains(r.body, `data-live-report="gcra"`) {
		t.Error("the exercise page with a live hub does not load live.js or mark its report")
	}
}
