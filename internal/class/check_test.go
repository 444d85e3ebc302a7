package class_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"ratelab/grader"
	"ratelab/grader/report"
	"ratelab/internal/class"
	"ratelab/internal/event"
	"ratelab/internal/store"
	"ratelab/internal/store/storetest"
)

// snapshot is everything of the class that counts submissions: the
// gradebook, its exports, the lists, the pitfalls' submissions.
type snapshot struct {
	Cells    map[string]map[string]class.Cell
	Graded   map[string]int
	Pitfalls map[string][]class.PitfallCount
	CSV      string
	Canvas   string
	All      []int64
	Ada      []int64
	Pitfall  []int64
}

func takeSnapshot(t *testing.T, c *class.Class, st *store.Store, ada store.User) snapshot {
	t.Helper()
	ctx := t.Context()
	gb, err := c.Gradebook(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var csv, canvas bytes.Buffer
	if err := gb.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	if err := gb.WriteCanvasCSV(&canvas); err != nil {
		t.Fatal(err)
	}
	ids := func(userID int64) []int64 {
		subs, err := st.Submissions(ctx, userID, 100)
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, s := range subs {
			out = append(out, s.ID)
		}
		return out
	}
	pit, err := c.PitfallSubmissions(ctx, "tokenbucket", "fractional-tokens")
	if err != nil {
		t.Fatal(err)
	}
	return snapshot{Cells: gb.Cells, Graded: gb.Graded, Pitfalls: gb.Pitfalls, CSV: csv.String(), Canvas: canvas.String(),
		All: ids(0), Ada: ids(ada.ID), Pitfall: pit}
}

// A learner's checks, graded and waiting, leave the gradebook, its CSV
// and Canvas exports, the submission lists and the pitfalls' submissions
// exactly as they were, whether the gradebook is kept up to date as
// gradings finish or built again from the store; the dashboard's stream
// carries none of the check's events, while the check's own subscribers
// get its done event with its result.
func TestChecksLeaveTheGradebookAlone(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db string) {
		f := newClassOn(t, db, class.Config{}, func(_ context.Context, o grader.Options) (*report.Report, error) {
			src, _ := os.ReadFile(filepath.Join(o.Replace["tokenbucket"], "tokenbucket.go"))
			if strings.Contains(string(src), "draft") { // a check scores better, with no pitfall
				return &report.Report{Exercises: []report.Exercise{{ID: "tokenbucket", Status: report.Passed, Score: 2, MaxScore: 2}}}, nil
			}
			return result(report.Failed, ""), nil
		})
		sub := f.submit(t, f.ada, "package tokenbucket // submitted")
		f.waitDone(t, sub.ID)
		before := takeSnapshot(t, f.c, f.st, f.ada)
		if len(before.Ada) != 1 || !before.Cells["ada"]["tokenbucket"].Graded {
			t.Fatalf("before the check: %+v; want ada's one graded submission", before)
		}

		files := []store.File{{Name: "tokenbucket.go", Content: []byte("package tokenbucket // draft")}}
		chk, err := f.c.Check(t.Context(), f.ada, "tokenbucket", files)
		if err != nil {
			t.Fatal(err)
		}
		done := f.checkDone(t, chk.ID)
		if done.Kind != store.KindCheck || done.Summary == nil || done.Summary.Score != 2 {
			t.Fatalf("the check's done event = %+v; want kind check with its score 2", done)
		}
		// Bob's check, graded or still waiting when the snapshot is read:
		// either way it counts nowhere.
		if _, err := f.c.Check(t.Context(), f.bob, "tokenbucket", files); err != nil {
			t.Fatal(err)
		}
		after := takeSnapshot(t, f.c, f.st, f.ada)
		if !reflect.DeepEqual(after, before) {
			t.Errorf("after ada's check:\n%+v\nwant as before:\n%+v", after, before)
		}
		// Built again from the store: the same.
		fresh := class.New(class.Config{Store: f.st, Clock: wall{}, Root: "../..", TempDir: filepath.Join(t.TempDir(), "fresh")})
		if again := takeSnapshot(t, fresh, f.st, f.ada); !reflect.DeepEqual(again, before) {
			t.Errorf("a gradebook built from the store after the check:\n%+v\nwant as before:\n%+v", again, before)
		}
		// The dashboard's stream carried nothing of the checks. A marker
		// submission's done event comes after anything the checks sent.
		marker := f.submit(t, f.bob, "package tokenbucket // marker")
		deadline := time.After(20 * time.Second)
		for {
			select {
			case e, ok := <-f.done.C:
				if !ok {
					t.Fatal("the dashboard's subscription was dropped")
				}
				if e.Kind == store.KindCheck || e.Submission == chk.ID {
					t.Fatalf("the dashboard received a check's event: %+v", e)
				}
				if e.Type == event.Grade && e.Submission == marker.ID {
					return
				}
			case <-deadline:
				t.Fatal("no done event of the marker submission")
			}
		}
	})
}

// checkDone waits for a check's Grade event (checks are not on the
// dashboard's stream), or reads it back if it was graded already.
func (f *fixture) checkDone(t *testing.T, id int64) class.Event {
	t.Helper()
	own := f.c.Subscribe(id)
	defer own.Close()
	if got, err := f.st.Submission(t.Context(), id); err == nil && got.Job.State == store.Done {
		return class.GradeEvent(got) // graded before we subscribed
	}
	return waitFor(t, own, id, event.Grade)
}

func waitFor(t *testing.T, s *class.Subscription, sub int64, typ event.Type) class.Event {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case e, ok := <-s.C:
			if !ok {
				t.Fatal("subscription dropped")
			}
			if e.Type == typ && e.Submission == sub {
				return e
			}
		case <-timeout:
			t.Fatalf("submission %d: no %s event", sub, typ)
		}
	}
}
