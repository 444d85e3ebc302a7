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
	var (
		mu        sync.Mutex
		latencies []time.Duration
	)
	stop := make(chan struct{})
	var pollers sync.WaitGroup
	for range 2 {
		pollers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				t0 := time.Now()
				if code, _ := get(t, prof, s.URL+"/class/dashboard"); code != http.StatusOK {
					t.Errorf("dashboard under load: %d", code)
					return
				}
				mu.Lock()
				latencies = append(latencies, time.Since(t0))
				mu.Unlock()
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
	deadline := time.Now().Add(4 * time.Minute)
	for {
		q, _ := st.CountJobs(context.Background(), store.Queued)
		r, _ := st.CountJobs(context.Background(), store.Running)
		if q+r == 0 {
			break
		}
		if time.Now().After(deadline) {
			close(stop)
			t.Fatalf("%d queued and %d running after 4 minutes", q, r)
		}
		time.Sleep(200 * time.Millisecond)
	}
	elapsed := time.Since(start)
	close(stop)
	pollers.Wait()

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
	slices.Sort(latencies)
	p := func(q float64) time.Duration {
		if len(latencies) == 0 {
			return 0
		}
		return latencies[min(len(latencies)-1, int(q*float64(len(latencies))))]
	}
	t.Logf("%d submissions queued in %s; all graded in %s: %.1f submissions/s with 1 worker", len(want), queuedIn.Round(time.Millisecond),
		elapsed.Round(time.Millisecond), float64(len(want))/elapsed.Seconds())
	t.Logf("dashboard under that load: %d loads, p50 %s, p99 %s, max %s", len(latencies), p(0.5), p(0.99), p(1))
}
