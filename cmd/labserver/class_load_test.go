package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"ratelab/internal/store"
)

// TestClassLoad queues 200 submissions at once from 20 learners and checks
// that each is graded exactly once, while an instructor keeps reloading the
// dashboard. It logs the throughput and the dashboard's latency.
func TestClassLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("grades 200 submissions")
	}
	t.Parallel() // a server and a database of its own
	const learners, each = 20, 10
	var names []string
	for i := range learners {
		names = append(names, fmt.Sprintf("learner%02d", i))
	}
	db, tokens := setupClass(t, names...)
	s := startClassServer(t, db, "--no-bench", "--submit-burst", "1000")
	prof, _ := instructor(t, s)
	// The stub: built from the cache and graded as not started, so the
	// test measures the queue, the store and the server, not the checks.
	files := loadUploads(t, filepath.Join("..", "..", "exercises", "tokenbucket"))

	start := time.Now()
	var wg sync.WaitGroup
	ids := make(chan int64, learners*each)
	for _, name := range names {
		wg.Go(func() {
			for range each {
				code, _, body := post(t, s, tokens[name], "tokenbucket", files...)
				if code != http.StatusAccepted {
					t.Errorf("%s: %d %v", name, code, body)
					return
				}
				ids <- int64(body["id"].(float64))
			}
		})
	}
	wg.Wait()
	close(ids)
	queuedIn := time.Since(start)

	st, err := store.Open(context.Background(), db, wallClock{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// The instructor reloads the dashboard while the queue drains.
	dash := pollDashboard(t, prof, s.URL+"/class/dashboard")
	deadline := time.Now().Add(4 * time.Minute)
	for {
		q, _ := st.CountJobs(context.Background(), store.Queued)
		r, _ := st.CountJobs(context.Background(), store.Running)
		if q+r == 0 {
			break
		}
		if time.Now().After(deadline) {
			dash.stop()
			t.Fatalf("%d queued and %d running after 4 minutes", q, r)
		}
		time.Sleep(200 * time.Millisecond)
	}
	elapsed := time.Since(start)
	dash.stop()

	gs, err := st.Gradings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for id := range ids {
		want = append(want, id)
	}
	slices.Sort(want)
	// A learner's newer submission replaces one still waiting: every job
	// is graded once, or superseded without being claimed; each learner's
	// latest is graded.
	var got []int64
	latest := map[string]store.Grading{}
	for _, g := range gs {
		got = append(got, g.SubmissionID)
		latest[g.Learner] = g
		want, attempts := g.State == store.Done && g.Status != "", 1
		if g.State == store.Superseded {
			want, attempts = true, 0
		}
		if !want {
			t.Errorf("job %d: %s %q, want done with a result, or superseded", g.JobID, g.State, g.Status)
		}
		if j, err := st.Job(context.Background(), g.JobID); err != nil || j.Attempts != attempts {
			t.Errorf("job %d (%s) claimed %d times (%v), want %d", g.JobID, g.State, j.Attempts, err, attempts)
		}
	}
	for name, g := range latest {
		if g.State != store.Done {
			t.Errorf("%s's latest submission: %s, want graded", name, g.State)
		}
	}
	slices.Sort(got)
	if len(want) != learners*each || !slices.Equal(got, want) {
		t.Errorf("%d submissions accepted, %d jobs graded: want %d, one job each", len(want), len(got), learners*each)
	}
	t.Logf("%d submissions queued in %s; all graded in %s: %.1f submissions/s with 1 worker", len(want), queuedIn.Round(time.Millisecond),
		elapsed.Round(time.Millisecond), float64(len(want))/elapsed.Seconds())
	t.Logf("dashboard under that load: %s", dash.summary())
}

// dashboardPoll is two readers loading the dashboard at a reader's pace
// while a queue drains, timing each load.
type dashboardPoll struct {
	mu        sync.Mutex
	latencies []time.Duration
	done      chan struct{}
	readers   sync.WaitGroup
}

// pollDashboard starts the readers on url until stop.
func pollDashboard(t *testing.T, prof *http.Client, url string) *dashboardPoll {
	d := &dashboardPoll{done: make(chan struct{})}
	for range 2 {
		d.readers.Go(func() {
			for {
				select {
				case <-d.done:
					return
				default:
				}
				t0 := time.Now()
				if code, _ := get(t, prof, url); code != http.StatusOK {
					t.Errorf("dashboard under load: %d", code)
					return
				}
				d.mu.Lock()
				d.latencies = append(d.latencies, time.Since(t0))
				d.mu.Unlock()
				time.Sleep(50 * time.Millisecond) // a reader's pace, not synchronisation
			}
		})
	}
	return d
}

// stop ends the readers and waits for them; a second call does nothing.
func (d *dashboardPoll) stop() {
	select {
	case <-d.done:
	default:
		close(d.done)
	}
	d.readers.Wait()
}

// summary says how many loads there were and their p50, p99 and max.
func (d *dashboardPoll) summary() string {
	l := slices.Sorted(slices.Values(d.latencies))
	p := func(q float64) time.Duration {
		if len(l) == 0 {
			return 0
		}
		return l[min(len(l)-1, int(q*float64(len(l))))]
	}
	return fmt.Sprintf("%d loads, p50 %s, p99 %s, max %s", len(l), p(0.5), p(0.99), p(1))
}
